/* Sums a row with <= where < belongs: its last iteration reads past it. */
#include <stdio.h>

#define COLS 7

int row[COLS];

int pieces_in_row(void) {
  int count = 0;
  for (int col = 0; col <= COLS; col++) {
    count += row[col];
  }
  return count;
}

int main(void) {
  int col;
  while (scanf("%d", &col) == 1 && col >= 0 && col < COLS) {
    row[col] = 1;
  }
  printf("%d pieces\n", pieces_in_row());
  return 0;
}
