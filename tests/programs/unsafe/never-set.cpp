// Prints the winner's number, which nothing set.
#include <iostream>

int main() {
  int winner;
  int col;
  std::cin >> col;
  std::cout << "Player " << winner + 1 << " wins after column " << col << "\n";
  return 0;
}
