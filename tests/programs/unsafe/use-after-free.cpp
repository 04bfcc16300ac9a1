// Deletes the moves, then prints the first of them.
#include <cstdlib>
#include <iostream>

int main() {
  int *moves = static_cast<int *>(std::malloc(4 * sizeof(int)));
  if (moves == nullptr) {
    return 1;
  }
  for (int i = 0; i < 4; i++) {
    moves[i] = 0;
  }
  std::cin >> moves[0];
  std::free(moves);
  std::cout << "first move: " << moves[0] << "\n";
  return 0;
}
