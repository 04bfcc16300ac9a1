/* Tries to connect to a TCP port on this machine, where the test
   listens (@TCP_PORT@ is filled in by the test). */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include "common.h"
int main(void) {
  start();
  int s = socket(AF_INET, SOCK_STREAM, 0);
  if (s < 0) { printf("NO SOCKET\n"); return 0; }
  struct sockaddr_in a = {0};
  a.sin_family = AF_INET;
  a.sin_port = htons(@TCP_PORT@);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(s, (struct sockaddr *)&a, sizeof a) == 0) printf("CONNECTED\n");
  else printf("NO CONNECTION\n");
  return 0;
}
