/* PolyBench's cholesky (configs/cholesky.cfg): A = L L^T in place, the
 * lower triangle overwritten by L.  The diagonal takes a square root.
 */
#include <math.h>

#ifndef N
#define N 64
#endif

void kernel_cholesky(float A[N][N])
{
#pragma scop
	for (int i = 0; i < N; i++) {
		for (int j = 0; j < i; j++) {
			for (int k = 0; k < j; k++)
				A[i][j] -= A[i][k] * A[j][k];
			A[i][j] /= A[j][j];
		}
		for (int k = 0; k < i; k++)
			A[i][i] -= A[i][k] * A[i][k];
		A[i][i] = sqrtf(A[i][i]);
	}
#pragma endscop
}
