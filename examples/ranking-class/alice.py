# Right, and says so in her own capitals and spacing.
import csv
import sys

if len(sys.argv) != 3:
    print("Usage: python3 rank.py before.csv after.csv")
    sys.exit(1)
with open(sys.argv[1], newline="") as f:
    rows = list(csv.reader(f))[1:]
rows.sort(key=lambda r: (-int(r[1]), r[0]))
with open(sys.argv[2], "w", newline="") as f:
    out = csv.writer(f, lineterminator="\n")
    out.writerow(["name", "score"])
    out.writerows(rows)
print(f"RANKED {len(rows)}  students .")
