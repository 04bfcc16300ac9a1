#include <sys/mman.h>
#include <unistd.h>
#include "common.h"

int main(void)
{
#ifdef __SANITIZE_ADDRESS__
    size_t done;
    for (done = 0; done < 2048; done += 64) {
        char *p = mmap(0, 64 << 20, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED)
            break;
        memset(p, 1, 64 << 20);
    }
    if (done >= 2048)
        sleep(30);
#endif
    write_past();
    return 0;
}
