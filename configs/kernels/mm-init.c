/* Matrix multiply with the output set to zero first: two statements, the
 * initialisation S0 and the accumulation S1 (configs/mm-init.cfg).
 */
#ifndef M
#define M 256
#endif
#ifndef N
#define N 256
#endif
#ifndef K
#define K 256
#endif

void mm_init(float A[M][K], float B[K][N], float C[M][N])
{
#pragma scop
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			C[i][j] = 0;
			for (int k = 0; k < K; k++)
				C[i][j] += A[i][k] * B[k][j];
		}
#pragma endscop
}
