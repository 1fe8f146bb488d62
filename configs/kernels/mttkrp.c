/* The matricised tensor times Khatri-Rao product (configs/mttkrp.cfg):
 * D(i,j) = sum over k, l of A(i,k,l) B(k,j) C(l,j).
 */
#ifndef I
#define I 128
#endif
#ifndef J
#define J 64
#endif
#ifndef K
#define K 32
#endif
#ifndef L
#define L 32
#endif

void mttkrp(float A[I][K][L], float B[K][J], float C[L][J], float D[I][J])
{
#pragma scop
	for (int i = 0; i < I; i++)
		for (int j = 0; j < J; j++)
			for (int k = 0; k < K; k++)
				for (int l = 0; l < L; l++)
					D[i][j] += A[i][k][l] * B[k][j] * C[l][j];
#pragma endscop
}
