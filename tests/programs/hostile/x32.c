/* Makes system calls with the x32 numbers (nr | 0x40000000), which a
   list of refused x86-64 numbers does not name: a UDP socket and a
   datagram to the test's listener. Reports what worked. */
#include <netinet/in.h>
#include <arpa/inet.h>
#include <sys/syscall.h>
#include <string.h>
#include "common.h"
#define X32 0x40000000L
int main(void) {
  start();
#if defined(__x86_64__)
  long fd = syscall(X32 | SYS_socket, AF_INET, SOCK_DGRAM, 0);
  printf("X32 SOCKET %ld\n", fd);
  if (fd >= 0) {
    struct sockaddr_in to = {0};
    to.sin_family = AF_INET;
    to.sin_port = htons(@UDP_PORT@);
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    printf("X32 SENDTO %ld\n", syscall(X32 | SYS_sendto, fd, "X32 LEAK", 8, 0, &to, sizeof to));
  }
  printf("X32 SETSID %ld\n", syscall(X32 | SYS_setsid));
#endif
  return 0;
}
