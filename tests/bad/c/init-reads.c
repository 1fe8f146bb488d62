/* The output initialised from another array. */
#define N 8
void f(float A[N][N], float B[N][N], float C[N][N], float D[N][N]) {
#pragma scop
for (int i = 0; i < N; i++)
 for (int j = 0; j < N; j++) {
  C[i][j] = D[i][j];
  for (int k = 0; k < N; k++)
   C[i][j] += A[i][k] * B[k][j];
 }
#pragma endscop
}
