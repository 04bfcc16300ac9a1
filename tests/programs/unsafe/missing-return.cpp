// Connect Four's full-board check that falls off its end when a column
// has room.
#include <iostream>

const int ROWS = 6;
const int COLS = 7;

bool board_full(const char board[ROWS][COLS]) {
  for (int col = 0; col < COLS; col++) {
    if (board[ROWS - 1][col] == '-') {
      return false;
    }
  }
}

int main() {
  char board[ROWS][COLS];
  for (int row = 0; row < ROWS; row++) {
    for (int col = 0; col < COLS; col++) {
      board[row][col] = '-';
    }
  }
  int col;
  if (std::cin >> col && col >= 0 && col < COLS) {
    board[0][col] = 'R';
  }
  std::cout << (board_full(board) ? "full" : "room") << "\n";
  return 0;
}
