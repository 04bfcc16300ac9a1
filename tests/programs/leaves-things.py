# Says what its working folder and TMPDIR hold, then leaves there what
# its input asks for (a file, a folder, or nothing): the runner's tests
# check that the next run in the same slot finds both folders empty.
import os

folders = [".", os.environ["TMPDIR"]]
print("found", [sorted(os.listdir(f)) for f in folders])
leave = input("leave? ")
for f in folders:
    if leave == "file":
        with open(os.path.join(f, "left.txt"), "w") as out:
            out.write("left\n")
    elif leave == "folder":
        os.mkdir(os.path.join(f, "left"))
print("left", leave)
