/* A 1-D Jacobi stencil in single-assignment form (configs/jacobi-1d-c.cfg):
 * each time step writes its own row of A, so the kernel is one statement,
 * which a skewing schedule in the config can transform.  PolyBench's form
 * (jacobi-1d.c) swaps two arrays each step and is two computations.
 */
#ifndef T
#define T 32
#endif
#ifndef N
#define N 256
#endif

void kernel_jacobi_1d_sa(float A[T + 1][N])
{
#pragma scop
	for (int t = 0; t < T; t++)
		for (int i = 1; i < N - 1; i++)
			A[t + 1][i] = 0.33333f *
				(A[t][i - 1] + A[t][i] + A[t][i + 1]);
#pragma endscop
}
