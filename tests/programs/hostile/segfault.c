#include "common.h"
int main(void) {
  int col = start();
  int *board = NULL;
  board[col] = 1;
  return 0;
}
