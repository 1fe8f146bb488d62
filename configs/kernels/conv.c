/* A 2-D convolution layer (configs/conv.cfg): O output channels of R x C
 * pixels from I input channels with P x Q filters, stride 1.
 */
#ifndef O
#define O 64
#endif
#ifndef I
#define I 32
#endif
#ifndef R
#define R 28
#endif
#ifndef C
#define C 28
#endif
#ifndef P
#define P 3
#endif
#ifndef Q
#define Q 3
#endif

void conv(float W[O][I][P][Q], float In[I][R + P - 1][C + Q - 1],
	float out[O][R][C])
{
#pragma scop
	for (int o = 0; o < O; o++)
		for (int r = 0; r < R; r++)
			for (int c = 0; c < C; c++)
				for (int i = 0; i < I; i++)
					for (int p = 0; p < P; p++)
						for (int q = 0; q < Q; q++)
							out[o][r][c] += W[o][i][p][q] *
								In[i][r + p][c + q];
#pragma endscop
}
