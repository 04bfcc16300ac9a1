// reads-outside.c in C++ (iostream and fstream), compiled with g++ and
// run on libstdc++: tries to read files outside its working folder and
// to write outside it, and reports what worked.
#include <fstream>
#include <iostream>
#include <string>
#include "common.h"
static void try_read(const std::string &path) {
  std::ifstream in(path);
  std::string line;
  if (in.is_open()) {
    std::getline(in, line);
    std::cout << "READ " << path << ": " << line << std::endl;
  } else {
    std::cout << "DENIED " << path << std::endl;
  }
}
static void try_write(const std::string &path) {
  std::ofstream out(path);
  if (out.is_open() && (out << "escaped\n")) std::cout << "WROTE " << path << std::endl;
  else std::cout << "DENIED " << path << std::endl;
}
int main() {
  start();
  try_read("@OUTSIDE@/secret.txt");
  try_read("../../secret.txt");
  try_read("@CASES@/seed-example-1.yaml");
  try_read("@CLASS@/aaa-correct.c");
  try_read("/etc/shadow");
  try_read("/proc/1/environ");
  try_write("@OUTSIDE@/escaped.txt");
  try_write("/tmp/referee-escaped.txt");
  try_write("../escaped.txt");
  return 0;
}
