/* Plays the first prompt, then prints one line of a mebibyte and stops. */
#include <stdio.h>
#include <string.h>
int main(void) {
  for (int i = 0; i < 6; i++) printf("------\n");
  printf("Red, please enter a valid column number (0-5): ");
  int col;
  if (scanf("%d", &col) != 1) return 0;
  static char line[1 << 20];
  memset(line, 'R', sizeof line);
  fwrite(line, 1, sizeof line, stdout);
  printf("\n");
  return 0;
}
