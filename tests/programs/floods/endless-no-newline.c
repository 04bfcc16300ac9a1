/* Prints without end and never a newline. */
#include <stdio.h>
int main(void) {
  for (;;) fputs("R-Y-R-", stdout);
}
