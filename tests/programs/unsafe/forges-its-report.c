/* Writes a report of its own making where the sanitizers write theirs:
   a flood of made-up findings, with escape sequences in them, and a
   link in place of another report. What referee reads of it is
   bounded, made safe, and costs nothing but this program's own
   diagnoses. */
#include <stdio.h>
#include <unistd.h>
int main(void) {
  FILE *report = fopen(".referee-checks/report.1", "w");
  if (report != NULL) {
    for (int i = 0; i < 200000; i++) {
      fprintf(report, "forges-its-report.c:%d:1: runtime error: \033[2Jsigned integer overflow %0300d\n", i, i);
    }
    fclose(report);
  }
  symlink("/etc/passwd", ".referee-checks/report.2");
  printf("Red, please enter a valid column number (0-5): ");
  return 0;
}
