/* PolyBench's 2mm: two multiplies, the second reading the first's result.
 * The array maps one of them; the other would be left out. */
#define N 8
void f(float alpha, float beta, float tmp[N][N], float A[N][N],
	float B[N][N], float C[N][N], float D[N][N]) {
#pragma scop
for (int i = 0; i < N; i++)
 for (int j = 0; j < N; j++) {
  tmp[i][j] = 0;
  for (int k = 0; k < N; k++)
   tmp[i][j] += alpha * A[i][k] * B[k][j];
 }
for (int i = 0; i < N; i++)
 for (int j = 0; j < N; j++) {
  D[i][j] *= beta;
  for (int k = 0; k < N; k++)
   D[i][j] += tmp[i][k] * C[k][j];
 }
#pragma endscop
}
