void f(float B[8]) {
#pragma endscop
 B[0] = 1;
}
