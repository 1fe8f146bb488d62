/* PolyBench's gemm: C = alpha * A * B + beta * C, with the loop order
 * PolyBench writes (i, k, j) and the scaling by beta before the
 * accumulation.  alpha and beta are constants of the kernel, not arrays.
 */
#ifndef NI
#define NI 1024
#endif
#ifndef NJ
#define NJ 1024
#endif
#ifndef NK
#define NK 1024
#endif

void kernel_gemm(float alpha, float beta, float C[NI][NJ], float A[NI][NK],
	float B[NK][NJ])
{
	int i, j, k;

#pragma scop
	for (i = 0; i < NI; i++) {
		for (j = 0; j < NJ; j++)
			C[i][j] *= beta;
		for (k = 0; k < NK; k++)
			for (j = 0; j < NJ; j++)
				C[i][j] += alpha * A[i][k] * B[k][j];
	}
#pragma endscop
}
