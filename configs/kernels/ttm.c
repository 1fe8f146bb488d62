/* The tensor times matrix product along the third mode (configs/ttm.cfg):
 * Y(i,j,k) = sum over l of X(i,j,l) U(l,k).
 */
#ifndef I
#define I 32
#endif
#ifndef J
#define J 32
#endif
#ifndef K
#define K 32
#endif
#ifndef L
#define L 32
#endif

void ttm(float X[I][J][L], float U[L][K], float Y[I][J][K])
{
#pragma scop
	for (int i = 0; i < I; i++)
		for (int j = 0; j < J; j++)
			for (int k = 0; k < K; k++)
				for (int l = 0; l < L; l++)
					Y[i][j][k] += X[i][j][l] * U[l][k];
#pragma endscop
}
