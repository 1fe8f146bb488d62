/* Batched matrix multiply (configs/bmm.cfg): B independent products
 * C[b] = A[b] * W[b], as attention's score and context products are.
 */
#ifndef B
#define B 8
#endif
#ifndef M
#define M 64
#endif
#ifndef N
#define N 64
#endif
#ifndef K
#define K 64
#endif

void bmm(float A[B][M][K], float W[B][K][N], float C[B][M][N])
{
#pragma scop
	for (int b = 0; b < B; b++)
		for (int i = 0; i < M; i++)
			for (int j = 0; j < N; j++)
				for (int k = 0; k < K; k++)
					C[b][i][j] += A[b][i][k] * W[b][k][j];
#pragma endscop
}
