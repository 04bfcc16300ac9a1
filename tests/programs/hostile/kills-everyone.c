/* Sends SIGKILL to every process it may signal, to process 1, and to its
   parent: the grader, the slot's keeper and other students' programs must
   all carry on. */
#include <signal.h>
#include "common.h"
int main(void) {
  start();
  kill(getppid(), SIGKILL);
  kill(1, SIGKILL);
  kill(-1, SIGKILL);
  printf("still alive\n");
  return 0;
}
