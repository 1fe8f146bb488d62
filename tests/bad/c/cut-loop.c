void f(float B[8]) {
  for (int i = 0; i < 8; i++) {
#pragma scop
    B[i] = 0;
  }
#pragma endscop
}
