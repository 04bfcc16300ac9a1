/* Kills a process of the machine's (the test's, @VICTIM@), and asks
   whether any process outside its run could be signalled at all
   (kill(-1, 0) sends nothing). */
#include <errno.h>
#include <signal.h>
#include "common.h"
int main(void) {
  start();
  printf("VICTIM %s\n", kill(@VICTIM@, SIGKILL) == 0 ? "KILLED" : "SAFE");
  errno = 0;
  int any = kill(-1, 0);
  printf("ANY %d %d\n", any, errno);
  return 0;
}
