/* Looks for a built-in hidden case's words inside referee's own program,
   installed where packages put it (/usr/local/bin/referee), and in the
   autograder's folder, and says what it found: the grader's files must
   stay the grader's wherever referee is installed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first prompt of Connect Four, and one column read. */
static void start(void) {
  for (int i = 0; i < 6; i++) printf("------\n");
  printf("Red, please enter a valid column number (0-5): ");
  int col = 0;
  if (scanf("%d", &col) != 1) exit(0);
}

/* Words of the hidden Connect Four case four-with-a-gap-is-not-a-win,
   split so that this program's own text does not hold them whole. */
static const char *part1 = "with a gap (columns 0, 1, ";
static const char *part2 = "3 and 4)";

static void search(const char *path) {
  char wanted[64];
  snprintf(wanted, sizeof wanted, "%s%s", part1, part2);
  FILE *f = fopen(path, "rb");
  if (!f) {
    /* Not why: the same words wherever referee is installed or not. */
    printf("REFUSED %s\n", path);
    return;
  }
  static char buf[1 << 16];
  size_t keep = 0, total = 0, n;
  size_t len = strlen(wanted);
  while ((n = fread(buf + keep, 1, sizeof buf - keep, f)) > 0) {
    size_t have = keep + n;
    total += n;
    for (size_t i = 0; i + len <= have; i++) {
      if (memcmp(buf + i, wanted, len) == 0) {
        /* What a cheater would print into the feedback. */
        printf("LEAKED %s: %.200s\n", path, buf + i);
        fclose(f);
        return;
      }
    }
    keep = len < have ? len : have;
    memmove(buf, buf + have - keep, keep);
  }
  printf("READ %s: %zu bytes, no hidden case\n", path, total);
  fclose(f);
}

int main(void) {
  search("/usr/local/bin/referee");
  search("/autograder/source/cases/connect4/four-with-a-gap-is-not-a-win.yaml");
  fflush(stdout);
  start();
  return 0;
}
