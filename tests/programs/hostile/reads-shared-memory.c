/* Looks for the segment an earlier run left (see leaves-shared-memory). */
#include <sys/ipc.h>
#include <sys/shm.h>
#include "common.h"
int main(void) {
  start();
  int id = shmget(0x5eed, 0, 0);
  if (id < 0) { printf("NONE\n"); return 0; }
  char *m = shmat(id, 0, SHM_RDONLY);
  if (m == (char *)-1) { printf("NONE\n"); return 0; }
  printf("FOUND %s\n", m);
  return 0;
}
