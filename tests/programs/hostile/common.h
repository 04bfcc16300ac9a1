/* Shared start of every hostile program: name the process, play the
   first prompt, read one column. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>

static int start(void) {
  prctl(PR_SET_NAME, "refhostile");
  for (int i = 0; i < 6; i++) printf("------\n");
  printf("Red, please enter a valid column number (0-5): ");
  int col = 0;
  if (scanf("%d", &col) != 1) exit(0);
  return col;
}
