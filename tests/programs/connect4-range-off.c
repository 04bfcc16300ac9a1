/* Connect Four's first moves, printing the columns' range as 0-5.02 in
 * its prompts where the reference prints 0-5: a number off by 0.02.
 * No win is checked: the cases it plays are a few moves long. */
#include <stdio.h>

static char board[6][6];

static void show(void) {
    for (int row = 5; row >= 0; row--) {
        for (int col = 0; col < 6; col++) putchar(board[row][col]);
        putchar('\n');
    }
}

int main(void) {
    for (int row = 0; row < 6; row++)
        for (int col = 0; col < 6; col++) board[row][col] = '-';
    const char *player = "Red";
    for (;;) {
        show();
        int col, row;
        for (;;) {
            printf("%s, please enter a valid column number (0-5.02): ", player);
            if (scanf("%d", &col) != 1) return 0;
            if (col < 0 || col > 5) continue;
            for (row = 0; row < 6 && board[row][col] != '-'; row++) {}
            if (row < 6) break;
        }
        board[row][col] = player[0];
        player = player[0] == 'R' ? "Yellow" : "Red";
    }
}
