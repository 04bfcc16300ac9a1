/* Asks whether files outside its run exist, without reading them: an
   answer other than "no such file" tells a program which files are
   there (other students' submissions, the cases, the grader's). Reports
   VISIBLE for each path that is not simply absent, and LISTED for a
   folder it can list. */
#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>
#include "common.h"
static void probe(const char *path) {
  struct stat st;
  if (stat(path, &st) == 0 || errno != ENOENT) printf("VISIBLE %s (%d)\n", path, errno);
}
static void list(const char *path) {
  DIR *d = opendir(path);
  if (!d) return;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d))) n++;
  closedir(d);
  if (n > 2) printf("LISTED %s (%d entries)\n", path, n);
}
int main(void) {
  start();
  probe("@OUTSIDE@/secret.txt");
  probe("@CASES@/seed-example-1.yaml");
  probe("@CLASS@/aaa-correct.c");
  probe("/etc/passwd");
  probe("/etc/shadow");
  probe("/etc/hostname");
  probe("/root/.bashrc");
  probe("/root/.ssh");
  probe("/home/student/../../etc/passwd");
  probe("/proc/self");
  probe("/sys/kernel");
  probe("/run");
  probe("/var/run/docker.sock");
  list("/builds");
  return 0;
}
