/* One line of 300 MB. */
#include "common.h"
int main(void) {
  start();
  static char block[1 << 20];
  memset(block, 'R', sizeof block);
  for (int i = 0; i < 300; i++) fwrite(block, 1, sizeof block, stdout);
  printf("\n");
  return 0;
}
