#include <assert.h>
#include "common.h"
int main(void) {
  int col = start();
  assert(col == 42);
  return 0;
}
