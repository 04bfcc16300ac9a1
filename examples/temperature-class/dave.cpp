// Dave: a correct program in C++.
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>

int main() {
    std::cout << "Temperature converter\n";
    std::string line;
    while (true) {
        std::cout << "Convert from (C, F or q to quit): " << std::flush;
        if (!std::getline(std::cin, line) || line == "q") break;
        bool celsius = line == "C" || line == "c";
        bool fahrenheit = line == "F" || line == "f";
        if (!celsius && !fahrenheit) {
            std::cout << "Please type C, F or q.\n";
            continue;
        }
        double t;
        while (true) {
            std::cout << "Temperature: " << std::flush;
            if (!std::getline(std::cin, line)) {
                std::cout << "Goodbye.\n";
                return 0;
            }
            std::istringstream in(line);
            std::string rest;
            if (in >> t && !(in >> rest)) break;
            std::cout << "That is not a number.\n";
        }
        std::cout << std::fixed << std::setprecision(1);
        if (celsius)
            std::cout << t << " C is " << t * 9 / 5 + 32 << " F\n";
        else
            std::cout << t << " F is " << (t - 32) * 5 / 9 << " C\n";
    }
    std::cout << "Goodbye.\n";
}
