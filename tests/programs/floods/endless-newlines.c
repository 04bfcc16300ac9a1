/* Prints only newlines, without end: a mebibyte of them is a million
   lines, each of which judging and reports would otherwise pay for. */
#include <stdio.h>
int main(void) {
  for (;;) putchar('\n');
}
