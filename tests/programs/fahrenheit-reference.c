/* A lab's own reference: converts a temperature, and exits with status
 * 1 on input that is not a number (tests/compare.rs uses it as a suite's
 * `reference:`). */
#include <stdio.h>

int main(void) {
    double f;
    printf("Fahrenheit: ");
    if (scanf("%lf", &f) != 1) {
        printf("Not a number.\n");
        return 1;
    }
    printf("Celsius: %.1f\n", (f - 32) * 5 / 9);
    return 0;
}
