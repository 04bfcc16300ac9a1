/* Tries to read files outside its working folder (the grader's, the
   hidden cases, other students' submissions) and to write outside it,
   and reports what worked. */
#include "common.h"
static void try_read(const char *path) {
  FILE *f = fopen(path, "r");
  if (f) {
    char line[256] = "";
    if (!fgets(line, sizeof line, f)) line[0] = 0;
    printf("READ %s: %s\n", path, line);
    fclose(f);
  } else {
    printf("DENIED %s\n", path);
  }
}
static void try_write(const char *path) {
  FILE *f = fopen(path, "w");
  if (f) { fprintf(f, "escaped\n"); fclose(f); printf("WROTE %s\n", path); }
  else printf("DENIED %s\n", path);
}
int main(void) {
  start();
  try_read("@OUTSIDE@/secret.txt");
  try_read("../../secret.txt");
  try_read("@CASES@/seed-example-1.yaml");
  try_read("@CASES@/suite.yaml");
  try_read("@CLASS@/aaa-correct.c");
  try_read("/etc/shadow");
  try_read("/root/.bashrc");
  try_read("/proc/1/environ");
  try_write("@OUTSIDE@/escaped.txt");
  try_write("/tmp/referee-escaped.txt");
  try_write("../escaped.txt");
  return 0;
}
