/* APS105 Lab 6: Connect Four on a 6x6 board. Write your program here. */
#include <stdio.h>

int main(void) {
  /* Your program starts here. */
  return 0;
}
