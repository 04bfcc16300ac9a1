#include "common.h"
int main(void) {
  start();
  printf("sleeping\n");
  sleep(1000);
  return 0;
}
