/* The tensor times matrix chain (configs/ttmc.cfg):
 * D(i,j,k) = sum over l, m of A(i,l,m) B(l,j) C(m,k).
 */
#ifndef I
#define I 64
#endif
#ifndef J
#define J 32
#endif
#ifndef K
#define K 32
#endif
#ifndef L
#define L 16
#endif
#ifndef M
#define M 16
#endif

void ttmc(float A[I][L][M], float B[L][J], float C[M][K], float D[I][J][K])
{
#pragma scop
	for (int i = 0; i < I; i++)
		for (int j = 0; j < J; j++)
			for (int k = 0; k < K; k++)
				for (int l = 0; l < L; l++)
					for (int m = 0; m < M; m++)
						D[i][j][k] += A[i][l][m] * B[l][j] *
							C[m][k];
#pragma endscop
}
