#include "common.h"
int main(void)
{
    write_past();
    return 0;
}
