/* Leaves its terminal as unlike a fresh one as it can: raw mode, echo on,
 * a tiny window, output written to /dev/tty that nobody collected yet. */
#include <fcntl.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

int main(void) {
    struct termios raw;
    struct winsize tiny = {5, 10, 0, 0};
    int tty;

    tcgetattr(0, &raw);
    cfmakeraw(&raw);
    raw.c_lflag |= ECHO;
    tcsetattr(0, TCSANOW, &raw);
    ioctl(0, TIOCSWINSZ, &tiny);
    tty = open("/dev/tty", O_WRONLY);
    if (tty >= 0) {
        write(tty, "left behind\n", 12);
    }
    printf("done\n");
    return 0;
}
