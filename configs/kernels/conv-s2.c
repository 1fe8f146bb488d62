/* A 2-D convolution layer with stride 2 (configs/conv-s2.cfg): O output
 * channels of R x C pixels from I input channels with P x Q filters, each
 * output pixel two input pixels from the last.
 */
#ifndef O
#define O 32
#endif
#ifndef I
#define I 16
#endif
#ifndef R
#define R 14
#endif
#ifndef C
#define C 14
#endif
#ifndef P
#define P 3
#endif
#ifndef Q
#define Q 3
#endif

void conv_s2(float W[O][I][P][Q], float In[I][2 * R + P - 2][2 * C + Q - 2],
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
								In[i][2 * r + p][2 * c + q];
#pragma endscop
}
