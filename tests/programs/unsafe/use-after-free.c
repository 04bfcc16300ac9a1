/* Frees the board, then reads a square of it to print the result. */
#include <stdio.h>
#include <stdlib.h>

#define ROWS 6
#define COLS 7

int main(void) {
  char *board = malloc(ROWS * COLS);
  if (board == NULL) {
    return 1;
  }
  for (int i = 0; i < ROWS * COLS; i++) {
    board[i] = '-';
  }
  int col;
  if (scanf("%d", &col) == 1 && col >= 0 && col < COLS) {
    board[col] = 'R';
  }
  free(board);
  printf("bottom left: %c\n", board[0]);
  return 0;
}
