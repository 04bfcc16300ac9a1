#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "common.h"

static void touch(size_t mib)
{
    size_t done;
    for (done = 0; done < mib; done += 64) {
        char *p = mmap(0, 64 << 20, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED)
            return;
        memset(p, 1, 64 << 20);
    }
}

int main(void)
{
#ifdef __SANITIZE_ADDRESS__
    pid_t child = fork();
    if (child == 0) {
        touch(2048);
        sleep(30);
        _exit(0);
    }
    if (child > 0)
        waitpid(child, 0, 0);
#endif
    write_past();
    return 0;
}
