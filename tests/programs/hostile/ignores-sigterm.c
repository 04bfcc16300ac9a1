#include <signal.h>
#include "common.h"
int main(void) {
  signal(SIGTERM, SIG_IGN);
  signal(SIGINT, SIG_IGN);
  signal(SIGHUP, SIG_IGN);
  start();
  for (;;) sleep(1);
}
