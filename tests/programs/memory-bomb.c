/* Allocates and touches memory until allocation fails, then uses the
   failed allocation like a careless student would. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void) {
  printf("Allocating...\n");
  for (;;) {
    char *block = malloc(1 << 20);
    memset(block, 1, 1 << 20);
  }
}
