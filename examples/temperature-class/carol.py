# Carol: a correct program in Python, with prompts of her own (one ends
# with a newline, as many students write them).
print("Temperature converter")
while True:
    try:
        scale = input("Which scale are you converting from? Type C, F or q:\n")
    except EOFError:
        break
    if scale == "q":
        break
    if scale not in ("C", "c", "F", "f"):
        print("Please type C, F or q.")
        continue
    while True:
        try:
            text = input("Please enter the temperature: ")
        except EOFError:
            print("Goodbye.")
            raise SystemExit(0)
        try:
            t = float(text)
            break
        except ValueError:
            print("That is not a number.")
    if scale in ("C", "c"):
        print(f"{t:.1f} C is {t * 9 / 5 + 32:.1f} F")
    else:
        print(f"{t:.1f} F is {(t - 32) * 5 / 9:.1f} C")
print("Goodbye.")
