/* Starts a child that tries to leave the session and double-forks,
   keeping stdout open, then exits at once. */
#include "common.h"
int main(void) {
  start();
  if (fork() == 0) {
    setsid();
    if (fork() == 0) {
      setsid();
      for (;;) { printf("still here\n"); fflush(stdout); sleep(1); }
    }
    for (;;) sleep(1);
  }
  printf("bye\n");
  return 0;
}
