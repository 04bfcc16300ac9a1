/* Tries to connect to a TCP port on this machine (@OUTSIDE@/port holds
   the port number). */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include "common.h"
int main(void) {
  start();
  int port = 0;
  FILE *f = fopen("@OUTSIDE@/port", "r");
  if (f) { if (fscanf(f, "%d", &port) != 1) port = 0; fclose(f); }
  if (!port) port = 80;
  int s = socket(AF_INET, SOCK_STREAM, 0);
  if (s < 0) { printf("NO SOCKET\n"); return 0; }
  struct sockaddr_in a = {0};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(s, (struct sockaddr *)&a, sizeof a) == 0) printf("CONNECTED\n");
  else printf("NO CONNECTION\n");
  return 0;
}
