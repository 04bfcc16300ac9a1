/* The lab in words of its own, but exiting with status 0 on input that
 * is not a number, where the reference exits with 1. */
#include <stdio.h>

int main(void) {
    double f;
    printf("Temperature in degrees Fahrenheit?\n");
    if (scanf("%lf", &f) != 1) {
        printf("That is not a temperature.\n");
        return 0;
    }
    printf("Celsius: %.3f\n", (f - 32) * 5 / 9);
    return 0;
}
