#include <stdio.h>

int main(void) {
  printf("Red, please enter a valid column number (0-5): ")
  return 0;
}
