#define N 8
void f(float B[N]) {
#pragma scop
for (int i = 0; i < N; i++) B[i] = 0;
}
