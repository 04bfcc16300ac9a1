/* Nests folders in its working folder as deep as it can (deeper than a
   path can name), locks the top one, and links one to the machine's
   root: cleaning up after it must neither fail (the next student in its
   slot would be graded in a dirty or missing folder) nor follow the link
   (it would empty the machine). */
#include <fcntl.h>
#include <sys/stat.h>
#include "common.h"
int main(void) {
  start();
  int fd = open(".", O_RDONLY | O_DIRECTORY);
  int depth = 0;
  for (; depth < 2500; depth++) {
    if (mkdirat(fd, "d", 0700) != 0) break;
    int next = openat(fd, "d", O_RDONLY | O_DIRECTORY);
    if (next < 0) break;
    if (depth > 0) close(fd);
    fd = next;
    if (depth == 10) symlinkat("/", fd, "root-link");
  }
  chmod("d", 0);
  printf("NESTED %d\n", depth);
  return 0;
}
