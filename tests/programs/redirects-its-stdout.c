/* Points its stdout at a file, asks whether that is a terminal, puts
   stdout back and reads a line (tests/machine.rs). */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
int main(void)
{
    char line[64];
    printf("stdout is a terminal: %d\n", isatty(1));
    fflush(stdout);
    int saved = dup(1);
    int file = open("out.txt", O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(file, 1);
    int redirected = isatty(1);
    dup2(saved, 1);
    printf("redirected to a file: %d\n", redirected);
    printf("name? ");
    if (!fgets(line, sizeof line, stdin))
        return 1;
    printf("hello %s", line);
    return 0;
}
