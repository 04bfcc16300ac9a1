/* Prints the processors it may run on (sched_getaffinity), for the
   runner's test that a worker's programs run where the worker does. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
int main(void) {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return 1;
  const char *sep = "";
  for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
    if (CPU_ISSET(cpu, &set)) { printf("%s%d", sep, cpu); sep = ","; }
  printf("\n");
  return 0;
}
