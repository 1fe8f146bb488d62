/* PolyBench's 3mm (configs/3mm.cfg): G = (A * B) * (C * D), three
 * multiplies, the third reading the first two's results E and F.
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
#ifndef NM
#define NM 64
#endif

void kernel_3mm(float E[NI][NJ], float A[NI][NK], float B[NK][NJ],
	float F[NJ][NL], float C[NJ][NM], float D[NM][NL], float G[NI][NL])
{
#pragma scop
	for (int i = 0; i < NI; i++)
		for (int j = 0; j < NJ; j++) {
			E[i][j] = 0;
			for (int k = 0; k < NK; k++)
				E[i][j] += A[i][k] * B[k][j];
		}
	for (int i = 0; i < NJ; i++)
		for (int j = 0; j < NL; j++) {
			F[i][j] = 0;
			for (int k = 0; k < NM; k++)
				F[i][j] += C[i][k] * D[k][j];
		}
	for (int i = 0; i < NI; i++)
		for (int j = 0; j < NL; j++) {
			G[i][j] = 0;
			for (int k = 0; k < NJ; k++)
				G[i][j] += E[i][k] * F[k][j];
		}
#pragma endscop
}
