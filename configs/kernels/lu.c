/* PolyBench's lu (configs/lu.cfg): A = L U in place, without pivoting.
 * Row i's entries left of the diagonal are updated and divided by the
 * pivot, those right of it updated: three statements.
 */
#ifndef N
#define N 64
#endif

void kernel_lu(float A[N][N])
{
#pragma scop
	for (int i = 0; i < N; i++) {
		for (int j = 0; j < i; j++) {
			for (int k = 0; k < j; k++)
				A[i][j] -= A[i][k] * A[k][j];
			A[i][j] /= A[j][j];
		}
		for (int j = i; j < N; j++)
			for (int k = 0; k < i; k++)
				A[i][j] -= A[i][k] * A[k][j];
	}
#pragma endscop
}
