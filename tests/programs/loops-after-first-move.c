/* Prints the first board and prompt, reads one move, says it is thinking,
   then loops forever. */
#include <stdio.h>
int main(void) {
  for (int i = 0; i < 6; i++) printf("------\n");
  printf("Red, please enter a valid column number (0-5): ");
  int col;
  if (scanf("%d", &col) != 1) return 0;
  printf("Thinking about column %d...\n", col);
  volatile unsigned long spin = 0;
  for (;;) spin++;
}
