"""Connect Four that trusts the column it is given: column 6 is one past
its board's last, and the program stops with an IndexError."""

ROWS, COLS = 6, 6


def drop(board, col, piece):
    for row in board:
        if row[col] == "-":
            row[col] = piece
            return


def main():
    board = [["-"] * COLS for _ in range(ROWS)]
    piece = "R"
    while True:
        col = int(input("Red, please enter a valid column number (0-5): "))
        drop(board, col, piece)


main()
