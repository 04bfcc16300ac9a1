/* Twelve children each take and touch 40 MiB, within a per-process
   limit of 128 MiB but far beyond it together; each reports on a pipe
   when it holds its memory. Reports how many held it at once: where
   memory is limited for the run as a whole, not all twelve can. */
#include <string.h>
#include <sys/wait.h>
#include "common.h"
#define CHILDREN 12
#define EACH (40 << 20)
int main(void) {
  start();
  int p[2];
  if (pipe(p) < 0) return 1;
  for (int i = 0; i < CHILDREN; i++) {
    if (fork() == 0) {
      char *m = malloc(EACH);
      if (!m) _exit(1);
      memset(m, 1, EACH);
      if (write(p[1], "x", 1) != 1) _exit(1);
      usleep(300000);
      _exit(0);
    }
  }
  close(p[1]);
  int held = 0;
  char c;
  while (read(p[0], &c, 1) == 1) held++;
  while (wait(NULL) > 0) {}
  printf("HELD %d of %d\n", held, CHILDREN);
  return 0;
}
