#define N 8
void g(int); int h(int);
void f(float A[N][N], float B[N], int idx[N], float *P, int n) {
#pragma scop
for (; n < N; n++) B[0] = 0;
#pragma endscop
}
