/* Writes 1 MB files until the disk refuses, then says so. */
#include "common.h"
int main(void) {
  start();
  static char block[1 << 20];
  memset(block, 'x', sizeof block);
  for (int i = 0;; i++) {
    char name[64];
    snprintf(name, sizeof name, "fill-%d", i);
    FILE *f = fopen(name, "w");
    if (!f || fwrite(block, 1, sizeof block, f) != sizeof block || fclose(f) != 0) {
      printf("disk full after %d MB\n", i);
      return 1;
    }
  }
}
