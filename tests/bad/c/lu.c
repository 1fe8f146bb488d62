/* PolyBench's lu: the updates below and above the diagonal are two
 * computations, and the division by the pivot a third. */
#define N 8
void f(float A[N][N]) {
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
