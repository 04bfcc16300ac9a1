#include "common.h"
int main(void) {
  start();
  printf("forking\n");
  fflush(stdout);
  for (;;) fork();
}
