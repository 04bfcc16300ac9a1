/* Makes system calls through the 32-bit entry point (`int $0x80`), which
   a filter checking only x86-64 numbers lets through: a UDP socket and a
   datagram to the test's listener (pointer arguments in a MAP_32BIT
   buffer), a session of its own, new user and network namespaces, a
   keyring. Reports what worked; a filter that checks the architecture
   first kills it at the first call. */
#include <sys/mman.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <string.h>
#include "common.h"
#if defined(__x86_64__)
static long int80(long nr, long a, long b, long c) {
  long ret;
  __asm__ volatile("int $0x80" : "=a"(ret) : "a"(nr), "b"(a), "c"(b), "d"(c) : "memory");
  return ret;
}
int main(void) {
  start();
  unsigned int *mem = mmap(0, 4096, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
  if (mem == MAP_FAILED) { printf("NO MEMORY\n"); return 0; }
  /* i386 socketcall(SYS_SOCKET, {AF_INET, SOCK_DGRAM, 0}) */
  mem[0] = AF_INET; mem[1] = SOCK_DGRAM; mem[2] = 0;
  long fd = int80(102, 1, (long)mem, 0);
  printf("SOCKETCALL %ld\n", fd);
  long direct = int80(359, AF_INET, SOCK_DGRAM, 0); /* i386 socket() */
  printf("SOCKET %ld\n", direct);
  if (fd >= 0) {
    struct sockaddr_in *to = (struct sockaddr_in *)(mem + 64);
    to->sin_family = AF_INET;
    to->sin_port = htons(@UDP_PORT@);
    to->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    char *msg = (char *)(mem + 128);
    strcpy(msg, "INT80 LEAK");
    /* socketcall(SYS_SENDTO, {fd, msg, len, 0, to, 16}) */
    mem[8] = fd; mem[9] = (unsigned int)(long)msg; mem[10] = strlen(msg);
    mem[11] = 0; mem[12] = (unsigned int)(long)to; mem[13] = sizeof *to;
    printf("SENDTO %ld\n", int80(102, 11, (long)(mem + 8), 0));
  }
  printf("SETSID %ld\n", int80(66, 0, 0, 0));
  printf("UNSHARE %ld\n", int80(310, 0x10000000 | 0x40000000, 0, 0));
  printf("KEYCTL %ld\n", int80(288, 0, -3, 0));
  return 0;
}
#else
int main(void) { start(); printf("not x86-64\n"); return 0; }
#endif
