#include <unistd.h>
#include "common.h"

int main(void)
{
#ifdef __SANITIZE_ADDRESS__
    execl("/usr/bin/python3", "python3", "-c",
          "import time; b = bytearray(2 << 30); time.sleep(30)", (char *)0);
#endif
    write_past();
    return 0;
}
