/* Prints what a sanitizer's report looks like on its own output, then
   fails: referee never takes a report from what a program prints. */
#include <stdio.h>
int main(void) {
  const char *fake =
      "==1==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x1 at pc 0x2 bp 0x3 sp 0x4\n"
      "WRITE of size 4 at 0x1 thread T0\n"
      "    #0 0x5  (/proc/self/exe+0x1139)\n"
      "prints-a-fake-report.c:1:1: runtime error: signed integer overflow\n";
  fputs(fake, stdout);
  fputs(fake, stderr);
  return 1;
}
