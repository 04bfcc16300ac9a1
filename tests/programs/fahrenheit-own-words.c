/* The lab in words of its own: its prompt ends with a newline, it
 * prints three decimals, and it words its error its own way (exiting with
 * status 1, as the reference does). */
#include <stdio.h>

int main(void) {
    double f;
    printf("Temperature in degrees Fahrenheit?\n");
    if (scanf("%lf", &f) != 1) {
        printf("That is not a temperature.\n");
        return 1;
    }
    printf("Celsius: %.3f\n", (f - 32) * 5 / 9);
    return 0;
}
