/* Tries the kernel's interfaces a graded program has no business with:
   new namespaces, mounts, tracing other processes, BPF, performance
   counters, keyrings, io_uring, userfaultfd, raw and netlink sockets,
   clone3 (whose flags a filter cannot read). Reports OK for each that
   worked. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/personality.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <linux/sched.h>
#include "common.h"
static void report(const char *what, long rc) {
  if (rc >= 0) printf("OK %s\n", what);
}
int main(void) {
  start();
  report("unshare user", unshare(CLONE_NEWUSER));
  report("unshare net", unshare(CLONE_NEWNET));
  report("unshare mount", unshare(CLONE_NEWNS));
  report("mount tmpfs", mount("none", "/tmp", "tmpfs", 0, 0));
  report("ptrace parent", ptrace(PTRACE_ATTACH, getppid(), 0, 0));
  char buf[16];
  struct iovec local = {buf, sizeof buf}, remote = {(void *)0x400000, sizeof buf};
  report("process_vm_readv", syscall(SYS_process_vm_readv, getppid(), &local, 1, &remote, 1, 0));
  report("bpf", syscall(SYS_bpf, 0, 0, 0));
  report("perf_event_open", syscall(SYS_perf_event_open, 0, 0, -1, -1, 0));
  report("keyctl", syscall(SYS_keyctl, 0, -3, 0));
  report("io_uring_setup", syscall(SYS_io_uring_setup, 1, buf));
  report("userfaultfd", syscall(SYS_userfaultfd, 0));
  report("socket inet", socket(AF_INET, SOCK_DGRAM, 0));
  report("socket unix", socket(AF_UNIX, SOCK_STREAM, 0));
  report("socket netlink", socket(AF_NETLINK, SOCK_RAW, 0));
  report("socket packet", socket(AF_PACKET, SOCK_RAW, 0));
  report("personality", personality(READ_IMPLIES_EXEC));
  struct clone_args args = {0};
  args.flags = CLONE_NEWUSER;
  args.exit_signal = SIGCHLD;
  long child = syscall(SYS_clone3, &args, sizeof args);
  if (child == 0) _exit(0);
  report("clone3 with a new user namespace", child);
  report("setsid", setsid());
  printf("done\n");
  return 0;
}
