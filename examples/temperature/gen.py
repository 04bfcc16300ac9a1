"""The temperature lab's input generator: given a seed as its one
argument, prints one case's input lines (what `referee explore` types).
Conversions both ways, lower and upper case, scales and temperatures a
student might mistype, usually ending with q."""
import random
import sys

rng = random.Random(int(sys.argv[1]))


def temperature():
    kind = rng.random()
    if kind < 0.1:
        return rng.choice(["abc", "", "12x", "-", "1e"])
    if kind < 0.3:
        return str(rng.randint(-60, 220))
    return f"{rng.uniform(-60, 220):.{rng.randint(1, 3)}f}"


for _ in range(rng.randint(1, 5)):
    if rng.random() < 0.15:
        print(rng.choice(["K", "x", "", "Celsius", "cf"]))
        continue
    print(rng.choice("CFcf"))
    while True:
        t = temperature()
        print(t)
        try:
            float(t)
            break
        except ValueError:
            continue
if rng.random() < 0.8:
    print("q")
