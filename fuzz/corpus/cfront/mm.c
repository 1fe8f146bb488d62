/* Matrix multiply C += A * B, the kernel of configs/mm.cfg written in C:
 * dse analyze configs/kernels/mm.c -DM=256 gives the same analysis.
 */
#ifndef M
#define M 1024
#endif
#ifndef N
#define N 1024
#endif
#ifndef K
#define K 1024
#endif

void mm(float A[M][K], float B[K][N], float C[M][N])
{
#pragma scop
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			for (int k = 0; k < K; k++)
				C[i][j] += A[i][k] * B[k][j];
#pragma endscop
}
