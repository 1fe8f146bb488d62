/* The output scaled after the accumulation. */
#define N 8
void f(float alpha, float A[N][N], float B[N][N], float C[N][N]) {
#pragma scop
for (int i = 0; i < N; i++)
 for (int j = 0; j < N; j++) {
  for (int k = 0; k < N; k++)
   C[i][j] += A[i][k] * B[k][j];
  C[i][j] *= alpha;
 }
#pragma endscop
}
