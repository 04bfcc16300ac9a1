#include "common.h"
int main(void) {
  start();
  for (;;) printf("------\n");
}
