void f(double B[8])
{
#pragma scop
	for (int i = 0; i < 8; i++)
		B[i] = 1;
#pragma endscop
}
