/* PolyBench's syrk (configs/syrk.cfg): the lower triangle of
 * C = alpha * A * A^T + beta * C.  The domain is a triangle (j <= i) times
 * the full k loop: N (N + 1) / 2 * M multiply-accumulates.
 */
#ifndef N
#define N 64
#endif
#ifndef M
#define M 48
#endif

void kernel_syrk(float alpha, float beta, float C[N][N], float A[N][M])
{
#pragma scop
	for (int i = 0; i < N; i++) {
		for (int j = 0; j <= i; j++)
			C[i][j] *= beta;
		for (int k = 0; k < M; k++)
			for (int j = 0; j <= i; j++)
				C[i][j] += alpha * A[i][k] * A[j][k];
	}
#pragma endscop
}
