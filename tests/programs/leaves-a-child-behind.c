/* Starts a child that outlives it (writing the child's pid to
   child.pid in the working folder), then plays nothing and exits. */
#include <stdio.h>
#include <unistd.h>
int main(void) {
  pid_t child = fork();
  if (child == 0) {
    sleep(60);
    return 0;
  }
  FILE *f = fopen("child.pid", "w");
  fprintf(f, "%d\n", (int)child);
  fclose(f);
  printf("started %d\n", (int)child);
  return 0;
}
