/* Prints bytes of every value (NUL, escapes, invalid UTF-8), without end. */
#include <stdio.h>
int main(void) {
  for (unsigned i = 0;; i = i * 1103515245u + 12345u) putchar((int)(i >> 16));
}
