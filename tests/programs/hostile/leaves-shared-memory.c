/* Leaves a System V shared memory segment holding a message for the
   next program run in its slot. */
#include <sys/ipc.h>
#include <sys/shm.h>
#include "common.h"
int main(void) {
  start();
  int id = shmget(0x5eed, 4096, IPC_CREAT | 0666);
  if (id < 0) { printf("NO SEGMENT\n"); return 0; }
  char *m = shmat(id, 0, 0);
  if (m == (char *)-1) { printf("NO ATTACH\n"); return 0; }
  strcpy(m, "SHARED-MEMORY-CANARY-1717");
  printf("LEFT\n");
  return 0;
}
