/* PolyBench's trmm (configs/trmm.cfg): B = alpha * A^T * B with A unit
 * lower triangular, computed in place: row i of B gathers the rows k > i
 * below it, then is scaled by alpha.
 */
#ifndef M
#define M 64
#endif
#ifndef N
#define N 48
#endif

void kernel_trmm(float alpha, float A[M][M], float B[M][N])
{
#pragma scop
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			for (int k = i + 1; k < M; k++)
				B[i][j] += A[k][i] * B[k][j];
			B[i][j] = alpha * B[i][j];
		}
#pragma endscop
}
