/* Asks every way a C program can whether it runs on a terminal, then
 * reads the way programs do: through stdio after a prompt, and with
 * raw reads smaller than a line. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

int main(void) {
    struct stat st;
    struct termios settings;
    struct winsize size;
    char line[64];
    char piece[2];
    int total = 0;
    int saved, file, redirected;

    printf("stdin %d stdout %d stderr %d\n", isatty(0), isatty(1), isatty(2));
    fstat(1, &st);
    printf("stdout is a character device: %d\n", S_ISCHR(st.st_mode));
    printf("stdout has terminal settings: %d\n", tcgetattr(1, &settings) == 0);
    ioctl(1, TIOCGWINSZ, &size);
    printf("window %dx%d\n", size.ws_col, size.ws_row);
    fprintf(stderr, "to stderr\n");

    /* Line-buffered only if stdout is a terminal: the prompt reaches the
     * transcript before the answer only then. */
    printf("name: ");
    if (fgets(line, sizeof line, stdin) == NULL) return 1;
    line[strcspn(line, "\n")] = '\0';
    printf("hello %s\n", line);

    /* A line taken two bytes at a time, as a terminal gives it. */
    printf("more: ");
    fflush(stdout);
    for (;;) {
        ssize_t n = read(0, piece, sizeof piece);
        if (n <= 0) return 2;
        total += (int)n;
        if (piece[n - 1] == '\n') break;
    }
    printf("read %d bytes in pieces\n", total);

    /* Redirected to a file, stdout is no terminal. */
    fflush(stdout);
    file = open("out.txt", O_WRONLY | O_CREAT | O_TRUNC, 0600);
    saved = dup(1);
    dup2(file, 1);
    redirected = isatty(1);
    dup2(saved, 1);
    printf("redirected stdout %d\n", redirected);
    return 0;
}
