/* Starts a child that would outlive it (the child names itself
   `refleftover`, so the tests can look for it), then plays nothing and
   exits. The child writes `child started` to child.pid once it runs:
   written under another name and renamed, so that the parent, which
   waits for the file to exist, never exits (and has its child killed)
   between the file's creation and its line. */
#include <stdio.h>
#include <sys/prctl.h>
#include <unistd.h>
int main(void) {
  pid_t child = fork();
  if (child == 0) {
    prctl(PR_SET_NAME, "refleftover");
    FILE *f = fopen("child.pid.new", "w");
    fprintf(f, "child started\n");
    fclose(f);
    rename("child.pid.new", "child.pid");
    sleep(60);
    return 0;
  }
  /* Wait until the child runs, so that it is there to be killed. */
  for (int i = 0; i < 2000 && access("child.pid", F_OK) != 0; i++) usleep(1000);
  printf("started %d\n", (int)child);
  return 0;
}
