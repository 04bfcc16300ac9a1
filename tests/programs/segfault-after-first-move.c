/* Reads one move, then writes through a null pointer. */
#include <stdio.h>
int main(void) {
  for (int i = 0; i < 6; i++) printf("------\n");
  printf("Red, please enter a valid column number (0-5): ");
  int col;
  if (scanf("%d", &col) != 1) return 0;
  printf("Dropping into column %d\n", col);
  int *board = NULL;
  board[col] = 1;
  return 0;
}
