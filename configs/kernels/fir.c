/* A FIR filter of T taps over N outputs, in 16-bit integers
 * (configs/fir.cfg): y(i) = sum over j of x(i + j) h(j).
 */
#ifndef N
#define N 4096
#endif
#ifndef T
#define T 64
#endif

void fir(short x[N + T - 1], short h[T], short y[N])
{
#pragma scop
	for (int i = 0; i < N; i++)
		for (int j = 0; j < T; j++)
			y[i] += x[i + j] * h[j];
#pragma endscop
}
