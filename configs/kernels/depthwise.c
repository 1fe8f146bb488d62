/* A depthwise 2-D convolution (configs/depthwise.cfg): each of the C
 * channels filtered by its own P x Q filter, stride 1, no sum across
 * channels.
 */
#ifndef C
#define C 32
#endif
#ifndef R
#define R 28
#endif
#ifndef S
#define S 28
#endif
#ifndef P
#define P 3
#endif
#ifndef Q
#define Q 3
#endif

void depthwise(float W[C][P][Q], float In[C][R + P - 1][S + Q - 1],
	float out[C][R][S])
{
#pragma scop
	for (int c = 0; c < C; c++)
		for (int r = 0; r < R; r++)
			for (int s = 0; s < S; s++)
				for (int p = 0; p < P; p++)
					for (int q = 0; q < Q; q++)
						out[c][r][s] += W[c][p][q] *
							In[c][r + p][s + q];
#pragma endscop
}
