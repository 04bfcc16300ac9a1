# A Python file with a syntax error on line 4: nothing of it may run.
print("this must not be printed")

def drop_piece(board, col:
    return 0
