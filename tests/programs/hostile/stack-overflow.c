#include "common.h"
static int deep(int n) {
  volatile char frame[1024];
  frame[0] = (char)n;
  return deep(n + 1) + frame[0];
}
int main(void) {
  start();
  return deep(0);
}
