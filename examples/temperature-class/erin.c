/* Erin: forgot a semicolon. */
#include <stdio.h>
int main(void) {
  printf("Temperature converter\n")
  return 0;
}
