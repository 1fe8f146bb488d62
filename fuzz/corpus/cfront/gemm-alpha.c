#include <math.h>
#ifndef NI
#define NI 64
#endif
#define NJ 64
#define NK 32
typedef float data_t;
void kernel_gemm(float alpha, float beta, data_t C[NI][NJ], data_t A[NI][NK], data_t B[NK][NJ])
{
  int i, j, k;
#pragma scop
  for (i = 0; i < NI; i++) {
    for (j = 0; j < NJ; j++)
      C[i][j] *= beta;
    for (k = 0; k < NK; k++) {
      for (j = 0; j < NJ; j++)
        C[i][j] += alpha * A[i][k] * B[k][j];
    }
  }
#pragma endscop
}
