/* Prints a double with %d: what is printed is not the number. */
#include <stdio.h>

int main(void) {
  double celsius;
  if (scanf("%lf", &celsius) != 1) {
    return 1;
  }
  double fahrenheit = celsius * 9 / 5 + 32;
  printf("%d F\n", fahrenheit);
  return 0;
}
