#define N 8
void g(int); int h(int);
void f(float A[N][N], float B[N], int idx[N], float *P, int n) {
#pragma scop
while (n > 0) B[0] = 1;
#pragma endscop
}
