float B[8];
#pragma scop
#pragma endscop
