#include "common.h"
int main(void) {
  start();
  printf("thinking\n");
  volatile unsigned long n = 0;
  for (;;) n++;
}
