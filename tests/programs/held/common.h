/* The fault every program here has, after its first input line: a write
   past the end of an array, by up to eight ints. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void write_past(void)
{
    int cells[4];
    char line[64];
    if (fgets(line, sizeof line, stdin) == NULL)
        return;
    cells[4 + (unsigned char)line[0] % 8] = 1;
    cells[0] = 0;
    printf("%d\n", cells[0]);
}
