/* Goes after its slot's keeper, which is of the same user and starts
   the next student's runs in the slot: lowers its limits (no more open
   files: it could receive no run's descriptors; a second of processor
   time), its priority (its own and every process of its user's) and its
   processors, and tries to reach its memory and its descriptors (it
   holds referee's /proc where it opens programs' memory for referee).
   Says what worked. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <sys/resource.h>
#include "common.h"

static int worked = 0;

static void tried(const char *what, int ok) {
  if (ok) {
    printf("CHANGED %s\n", what);
    worked++;
  }
}

int main(void) {
  start();
  pid_t keeper = getppid();
  struct rlimit none = {0, 0};
  struct rlimit second = {1, 1};
  tried("open files", prlimit(keeper, RLIMIT_NOFILE, &none, NULL) == 0);
  tried("processor time", prlimit(keeper, RLIMIT_CPU, &second, NULL) == 0);
  tried("priority", setpriority(PRIO_PROCESS, keeper, 19) == 0);
  tried("its user's priority", setpriority(PRIO_USER, 0, 19) == 0);
  tried("its group's priority", setpriority(PRIO_PGRP, 0, 19) == 0);
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(0, &one);
  tried("processors", sched_setaffinity(keeper, sizeof one, &one) == 0);
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/mem", (int)keeper);
  tried("memory", open(path, O_RDWR) >= 0);
  for (int fd = 0; fd < 16; fd++) {
    snprintf(path, sizeof path, "/proc/%d/fd/%d", (int)keeper, fd);
    tried(path, open(path, O_RDONLY | O_DIRECTORY) >= 0 || open(path, O_RDONLY) >= 0);
  }
  printf("KEEPER %s\n", worked ? "CHANGED" : "SAFE");
  return 0;
}
