/* Prints only carriage returns, without end. */
#include <stdio.h>
int main(void) {
  for (;;) putchar('\r');
}
