/* Looks at the square right of a row's last one, which is not there. */
#include <stdio.h>

#define ROWS 6
#define COLS 7

char board[ROWS][COLS];

int right_edge_taken(int row) {
  return board[row][COLS] != '-';
}

int main(void) {
  for (int row = 0; row < ROWS; row++) {
    for (int col = 0; col < COLS; col++) {
      board[row][col] = '-';
    }
  }
  int row;
  if (scanf("%d", &row) == 1 && row >= 0 && row < ROWS) {
    printf("%s\n", right_edge_taken(row) ? "taken" : "free");
  }
  return 0;
}
