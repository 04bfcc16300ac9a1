#include <unistd.h>
#include "common.h"

/* The start of AddressSanitizer's high shadow on x86-64, mapped (and
   never counted again by an address-space limit) before main. */
#define SHADOW 0x02008fff7000UL

__attribute__((no_sanitize("address", "undefined")))
static void touch_shadow(void)
{
    volatile char *p = (volatile char *)SHADOW;
    unsigned long at;
    for (at = 0; at < (2UL << 30); at += 4096)
        p[at] = 1;
    sleep(30);
}

int main(void)
{
#if defined(__SANITIZE_ADDRESS__) && defined(__x86_64__)
    touch_shadow();
#endif
    write_past();
    return 0;
}
