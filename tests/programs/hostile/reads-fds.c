/* Reads every descriptor it might have inherited besides stdin, stdout
   and stderr (a grader started as `exec 8<secret; referee grade ...`
   would hand it the secret). Reports what it read. */
#include <fcntl.h>
#include "common.h"
int main(void) {
  start();
  for (int fd = 3; fd < 1024; fd++) {
    char buf[128];
    if (lseek(fd, 0, SEEK_SET) < 0 && fcntl(fd, F_GETFD) < 0) continue;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    printf("FD %d open\n", fd);
    if (n > 0) { buf[n] = 0; printf("FD %d: %s\n", fd, buf); }
  }
  return 0;
}
