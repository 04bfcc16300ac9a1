/* Hana: after a scale it cannot use, says so and stops instead of asking again. */
#include <stdio.h>
#include <string.h>

/* Reads one line without its newline; 0 at the end of input. */
static int read_line(char *line, int size) {
  if (fgets(line, size, stdin) == NULL) return 0;
  line[strcspn(line, "\n")] = '\0';
  return 1;
}

int main(void) {
  char line[100];
  printf("Temperature converter\n");
  for (;;) {
    printf("Convert from (C, F or q to quit): ");
    if (!read_line(line, sizeof line) || strcmp(line, "q") == 0) break;
    int celsius = strcmp(line, "C") == 0 || strcmp(line, "c") == 0;
    int fahrenheit = strcmp(line, "F") == 0 || strcmp(line, "f") == 0;
    if (!celsius && !fahrenheit) {
      printf("Please type C, F or q.\n");
      return 0;
    }
    double t;
    char extra;
    for (;;) {
      printf("Temperature: ");
      if (!read_line(line, sizeof line)) goto done;
      if (sscanf(line, "%lf %c", &t, &extra) == 1) break;
      printf("That is not a number.\n");
    }
    if (celsius)
      printf("%.1f C is %.1f F\n", t, t * 9 / 5 + 32);
    else
      printf("%.1f F is %.1f C\n", t, (t - 32) * 5 / 9);
  }
done:
  printf("Goodbye.\n");
  return 0;
}
