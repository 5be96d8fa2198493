// SPDX-License-Identifier: GPL-3.0-or-later
// crucible-cli: Crucible's engine without a GUI, for GPU servers and clusters.
#include <cstring>
#include <iostream>
#include <string>
#include "backends/backends_info.h"
#include "crucible/version.h"

int main(int argc, char** argv) {
  if (argc >= 2 && (std::strcmp(argv[1], "--version") == 0 || std::strcmp(argv[1], "version") == 0)) {
    std::cout << "crucible-cli " << CRUCIBLE_VERSION << "\n" << crucible::backendsBuildInfo() << "\n";
    return 0;
  }
  std::cerr << "usage: crucible-cli --version\n";
  return 2;
}
