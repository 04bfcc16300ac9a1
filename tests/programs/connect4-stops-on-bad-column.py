# Connect Four's first moves as the reference prints them, but a column
# that does not exist ends the program (exit status 0) instead of asking
# again. No win is checked: the cases it plays are a few moves long.
board = [["-"] * 6 for _ in range(6)]
player = "Red"
while True:
    for row in reversed(board):
        print("".join(row))
    while True:
        try:
            typed = input(f"{player}, please enter a valid column number (0-5): ")
        except EOFError:
            raise SystemExit(0)
        col = int(typed)
        if not 0 <= col <= 5:
            print("Invalid column, goodbye.")
            raise SystemExit(0)
        if board[5][col] == "-":
            break
    row = next(r for r in range(6) if board[r][col] == "-")
    board[row][col] = player[0]
    player = "Yellow" if player == "Red" else "Red"
