# referee's function-call helper, embedded in the referee binary and written
# next to each Python submission it grades. Usage:
#
#     python3 helper.py STUDENT_FILE REQUEST_JSON
#
# Loads the student's file as a module without running its main block:
# every module-level statement other than imports, function and class
# definitions is removed first, as the CSE 101 grader removed global
# variables, so a function that relies on a global fails as it did for the
# course. Then calls one function on a board and writes what happened to
# result.json in the working folder:
#
#     {"returned": {...}, "board": ["top row", ..., "bottom row"]}
#     {"raised": "NameError", "message": "...", "where": "line 12, in drop_piece"}
import ast
import json
import sys
import traceback
import types

KEPT = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


class FallbackBoard:
    """The handout's Board, for a file that lost its own."""

    def __init__(self, num_rows, num_cols):
        self._num_rows = num_rows
        self._num_cols = num_cols
        self._slots = [['.'] * num_cols for _ in range(num_rows)]


def describe(value):
    if isinstance(value, bool):
        return {"type": "bool", "value": value}
    if isinstance(value, int) and -(2 ** 63) <= value < 2 ** 63:
        return {"type": "int", "value": value}
    if value is None:
        return {"type": "none"}
    try:
        truthy = bool(value)
    except Exception:
        truthy = True
    return {"type": type(value).__name__, "repr": repr(value)[:200], "truthy": truthy}


def board_rows(board):
    try:
        return ["".join(str(c) for c in row) for row in reversed(board._slots)]
    except Exception as e:
        return ["<the board's slots are no longer a list of rows: %s>" % e]


def failure(error, student_file):
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == student_file]
    where = "line %d, in %s" % (frames[-1].lineno, frames[-1].name) if frames else ""
    return {"raised": type(error).__name__, "message": str(error)[:500], "where": where}


def main():
    student_file, request = sys.argv[1], json.loads(sys.argv[2])
    try:
        with open(student_file, encoding="utf-8", errors="replace") as f:
            tree = ast.parse(f.read(), student_file)
    except SyntaxError as e:
        return {"raised": "SyntaxError", "message": str(e), "where": "line %s" % e.lineno}
    tree.body = [node for node in tree.body if isinstance(node, KEPT)]
    module = types.ModuleType("student")
    module.__file__ = student_file
    try:
        exec(compile(tree, student_file, "exec"), module.__dict__)
    except Exception as e:
        return failure(e, student_file)
    function = getattr(module, request["function"], None)
    if not callable(function):
        return {"raised": "missing", "message": "there is no function %s in the file" % request["function"], "where": ""}
    rows = request["board"]
    board_class = getattr(module, "Board", FallbackBoard)
    try:
        board = board_class(len(rows), len(rows[0]))
    except Exception:
        board = FallbackBoard(len(rows), len(rows[0]))
    board._slots = [list(row) for row in reversed(rows)]
    try:
        value = function(board, *request["args"])
    except Exception as e:
        return failure(e, student_file)
    return {"returned": describe(value), "board": board_rows(board)}


if __name__ == "__main__":
    try:
        result = main()
    except RecursionError as e:
        result = {"raised": "RecursionError", "message": str(e), "where": ""}
    with open("result.json", "w") as out:
        json.dump(result, out)
