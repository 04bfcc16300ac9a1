# Asks whether it runs on a terminal, the ways Python programs do, then
# prompts with input().
import os
import sys

print("stdin", sys.stdin.isatty(), "stdout", sys.stdout.isatty(), "stderr", sys.stderr.isatty())
print("line buffered", sys.stdout.line_buffering)
print("size", tuple(os.get_terminal_size()))
name = input("name: ")
print("hello", name)
