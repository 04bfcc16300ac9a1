/* Reads a line of the case's input, has a child read the next, then
   makes its stdin a file of its own (dup2 onto 0, then close(0) and
   open) and reads that: the runner, which answers reads of the terminal
   with the case's input, must let these reads read the file. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void read_line(const char *what) {
  char line[64] = {0};
  ssize_t n = read(0, line, sizeof line - 1);
  printf("%s: %s", what, n > 0 ? line : "(nothing)\n");
  fflush(stdout);
}

int main(void) {
  read_line("first");
  pid_t child = fork();
  if (child == 0) {
    read_line("child");
    return 0;
  }
  waitpid(child, NULL, 0);
  FILE *data = fopen("data.txt", "w");
  fputs("from the file\n", data);
  fclose(data);
  int file = open("data.txt", O_RDONLY);
  dup2(file, 0);
  read_line("second");
  close(0);
  open("data.txt", O_RDONLY);
  read_line("third");
  return 0;
}
