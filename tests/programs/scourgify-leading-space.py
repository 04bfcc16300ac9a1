# Scourgify with one bug: a space before each first name in after.csv.
import csv
import sys

if len(sys.argv) < 3:
    print("Too few command-line arguments")
    sys.exit(1)
if len(sys.argv) > 3:
    print("Too many command-line arguments")
    sys.exit(1)
with open(sys.argv[1], newline="") as f:
    rows = list(csv.DictReader(f))
with open(sys.argv[2], "w", newline="") as f:
    out = csv.writer(f, lineterminator="\n")
    out.writerow(["first", "last", "house"])
    for row in rows:
        last, first = row["name"].split(", ")
        out.writerow([" " + first, last, row["house"]])
