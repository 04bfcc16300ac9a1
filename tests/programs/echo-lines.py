# Asks for lines until it reads "quit", echoing each with its number.
n = 0
while True:
    line = input(f"line {n + 1}? ")
    if line == "quit":
        break
    n += 1
    print(f"{n}: {line}")
print("bye")
