#include "common.h"

static int answer(void)
{
    return 42;
}

/* Runs while the loader relocates the program: before anything else. */
static int (*resolve(void))(void)
{
    return answer;
}

int resolved(void) __attribute__((ifunc("resolve")));

int main(void)
{
    write_past();
    return resolved() == 42 ? 0 : 1;
}
