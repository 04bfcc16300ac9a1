/* Prints board rows without end, until the output limit stops it. */
#include <stdio.h>
int main(void) {
  for (;;) printf("------\n");
}
