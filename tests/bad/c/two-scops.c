void f(float B[8])
{
#pragma scop
	B[0] = 1;
#pragma endscop
}

void g(float B[8])
{
#pragma scop
	B[1] = 1;
#pragma endscop
}
