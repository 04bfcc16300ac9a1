# Connect Four's first moves, printing the columns' range with decimals
# (0.0-5.004) where the reference prints 0-5: the same numbers within
# 0.01. No win is checked: the cases it plays are a few moves long.
board = [["-"] * 6 for _ in range(6)]
player = "Red"
while True:
    for row in reversed(board):
        print("".join(row))
    while True:
        try:
            typed = input(f"{player}, please enter a valid column number (0.0-5.004): ")
        except EOFError:
            raise SystemExit(0)
        try:
            col = int(typed)
        except ValueError:
            continue
        if 0 <= col <= 5 and board[5][col] == "-":
            break
    row = next(r for r in range(6) if board[r][col] == "-")
    board[row][col] = player[0]
    player = "Yellow" if player == "Red" else "Red"
