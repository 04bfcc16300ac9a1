/* Closes its output early, then plays on without showing anything. */
#include "common.h"
int main(void) {
  start();
  fflush(stdout);
  close(1);
  close(2);
  int col;
  while (scanf("%d", &col) == 1) {}
  return 0;
}
