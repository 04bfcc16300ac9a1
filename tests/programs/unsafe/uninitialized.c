/* Counts a column's pieces in a total that was never set to 0. */
#include <stdio.h>

#define ROWS 6

int pieces_in(const char column[ROWS]) {
  int count;
  for (int row = 0; row < ROWS; row++) {
    if (column[row] != '-') {
      count++;
    }
  }
  return count;
}

int main(void) {
  char column[ROWS];
  for (int row = 0; row < ROWS; row++) {
    column[row] = '-';
  }
  int col;
  if (scanf("%d", &col) == 1) {
    column[0] = 'R';
  }
  printf("%d pieces\n", pieces_in(column));
  return 0;
}
