#include "common.h"
int main(void) {
  start();
  printf("allocating\n");
  for (;;) {
    char *block = malloc(1 << 20);
    memset(block, 1, 1 << 20);
  }
}
