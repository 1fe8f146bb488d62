/* PolyBench's jacobi-1d (configs/jacobi-1d.cfg): T time steps of a
 * three-point average, ping-ponging between A and B.
 */
#ifndef T
#define T 16
#endif
#ifndef N
#define N 64
#endif

void kernel_jacobi_1d(float A[N], float B[N])
{
#pragma scop
	for (int t = 0; t < T; t++) {
		for (int i = 1; i < N - 1; i++)
			B[i] = 0.33333f * (A[i - 1] + A[i] + A[i + 1]);
		for (int i = 1; i < N - 1; i++)
			A[i] = 0.33333f * (B[i - 1] + B[i] + B[i + 1]);
	}
#pragma endscop
}
