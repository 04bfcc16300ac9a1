/* Connect Four's win check that falls off its end when nobody has won. */
#include <stdio.h>

#define ROWS 6
#define COLS 7

int check_win(char board[ROWS][COLS], char player) {
  for (int row = 0; row < ROWS; row++) {
    for (int col = 0; col + 3 < COLS; col++) {
      if (board[row][col] == player && board[row][col + 1] == player &&
          board[row][col + 2] == player && board[row][col + 3] == player) {
        return 1;
      }
    }
  }
}

int main(void) {
  char board[ROWS][COLS] = {{0}};
  int col;
  while (scanf("%d", &col) == 1 && col >= 0 && col < COLS) {
    board[0][col] = 'R';
    if (check_win(board, 'R')) {
      printf("Red wins!\n");
      return 0;
    }
  }
  printf("No winner.\n");
  return 0;
}
