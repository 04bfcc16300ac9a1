/* Answers every input with a line of 200 KiB, and never plays. */
#include <stdio.h>
#include <string.h>
int main(void) {
  static char line[200 << 10];
  memset(line, 'Y', sizeof line);
  int col;
  for (;;) {
    printf("Red, please enter a valid column number (0-5): ");
    if (scanf("%d", &col) != 1) return 0;
    fwrite(line, 1, sizeof line, stdout);
    printf("\n");
  }
}
