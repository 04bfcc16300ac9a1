/* Starts up to 300 processes that each stay a while, and reports how
   many it got: a run is allowed 64 at once. Bounded, so that a broken
   limit shows in the report rather than bringing the machine down. */
#include <sys/wait.h>
#include "common.h"
int main(void) {
  start();
  int forked = 0;
  for (int i = 0; i < 300; i++) {
    pid_t child = fork();
    if (child == 0) { sleep(3); _exit(0); }
    if (child < 0) break;
    forked++;
  }
  printf("FORKED %d\n", forked);
  return 0;
}
