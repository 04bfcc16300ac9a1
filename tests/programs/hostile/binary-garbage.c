/* Prints NUL bytes, terminal escape sequences and invalid UTF-8. */
#include "common.h"
int main(void) {
  start();
  const char garbage[] = "\0\0\x1b[2J\x1b]0;owned\x07\xff\xfe\xc3(\x80\r\nR\0Y\n";
  fwrite(garbage, 1, sizeof garbage - 1, stdout);
  return 0;
}
