# Grows a list until Python raises MemoryError.
print("Allocating...")
blocks = []
while True:
    blocks.append(bytearray(1 << 20))
