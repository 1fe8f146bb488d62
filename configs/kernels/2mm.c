/* PolyBench's 2mm (configs/2mm.cfg): D = alpha * A * B * C + beta * D,
 * as two multiplies, the second reading the first's result tmp.
 */
#ifndef NI
#define NI 64
#endif
#ifndef NJ
#define NJ 64
#endif
#ifndef NK
#define NK 64
#endif
#ifndef NL
#define NL 64
#endif

void kernel_2mm(float alpha, float beta, float tmp[NI][NJ], float A[NI][NK],
	float B[NK][NJ], float C[NJ][NL], float D[NI][NL])
{
#pragma scop
	for (int i = 0; i < NI; i++)
		for (int j = 0; j < NJ; j++) {
			tmp[i][j] = 0;
			for (int k = 0; k < NK; k++)
				tmp[i][j] += alpha * A[i][k] * B[k][j];
		}
	for (int i = 0; i < NI; i++)
		for (int j = 0; j < NL; j++) {
			D[i][j] *= beta;
			for (int k = 0; k < NJ; k++)
				D[i][j] += tmp[i][k] * C[k][j];
		}
#pragma endscop
}
