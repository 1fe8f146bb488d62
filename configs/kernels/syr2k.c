/* PolyBench's syr2k (configs/syr2k.cfg): the lower triangle of
 * C = alpha * A * B^T + alpha * B * A^T + beta * C, two products summed in
 * one statement over the triangle j <= i.
 */
#ifndef N
#define N 64
#endif
#ifndef M
#define M 48
#endif

void kernel_syr2k(float alpha, float beta, float C[N][N], float A[N][M],
	float B[N][M])
{
#pragma scop
	for (int i = 0; i < N; i++) {
		for (int j = 0; j <= i; j++)
			C[i][j] *= beta;
		for (int k = 0; k < M; k++)
			for (int j = 0; j <= i; j++)
				C[i][j] += A[j][k] * alpha * B[i][k] +
					B[j][k] * alpha * A[i][k];
	}
#pragma endscop
}
