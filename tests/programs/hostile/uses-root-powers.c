/* Tries what only a privileged process can do, and reports what worked:
   as root, referee must leave it no capability at all. */
#include "common.h"
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <linux/capability.h>
int main(void) {
  start();
  FILE *f = fopen("mine.txt", "w");
  if (f) fclose(f);
  if (chown("mine.txt", 12345, 12345) == 0) printf("POWER chown\n");
  if (mknod("null2", S_IFCHR | 0666, makedev(1, 3)) == 0) printf("POWER mknod\n");
  if (setuid(12345) == 0 && getuid() == 12345) printf("POWER setuid\n");
  struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
  struct __user_cap_data_struct data[2];
  if (syscall(SYS_capget, &header, data) == 0 &&
      (data[0].permitted | data[0].effective | data[1].permitted | data[1].effective))
    printf("POWER capabilities\n");
  printf("done\n");
  return 0;
}
