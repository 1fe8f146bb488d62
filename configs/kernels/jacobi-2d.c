/* PolyBench's jacobi-2d (configs/jacobi-2d.cfg): T time steps of a
 * five-point average, ping-ponging between A and B.
 */
#ifndef T
#define T 8
#endif
#ifndef N
#define N 32
#endif

void kernel_jacobi_2d(float A[N][N], float B[N][N])
{
#pragma scop
	for (int t = 0; t < T; t++) {
		for (int i = 1; i < N - 1; i++)
			for (int j = 1; j < N - 1; j++)
				B[i][j] = 0.2f * (A[i][j] + A[i][j - 1] +
					A[i][j + 1] + A[i + 1][j] + A[i - 1][j]);
		for (int i = 1; i < N - 1; i++)
			for (int j = 1; j < N - 1; j++)
				A[i][j] = 0.2f * (B[i][j] + B[i][j - 1] +
					B[i][j + 1] + B[i + 1][j] + B[i - 1][j]);
	}
#pragma endscop
}
