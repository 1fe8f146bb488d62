#define N 8
void g(int); int h(int);
void f(float A[N][N], float B[N], int idx[N], float *P, int n) {
#pragma scop
for (int i = 0; i < N; i++)
  idx[i] %= 3;
#pragma endscop
}
