/* Prints the same line forever. */
#include <stdio.h>
int main(void) {
  for (;;) printf("Red, please enter a valid column number (0-5): \n");
}
