// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/fuzz/scratch_folder.h"

#include <cstdlib>
#include <stdexcept>
#include <string>
#include <unistd.h>

namespace crucible::fuzz {

namespace fs = std::filesystem;

const fs::path& fuzzScratchFolder() {
  static const fs::path folder = [] {
    std::string pattern = (fs::temp_directory_path() / "crucible-fuzz-project-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("cannot create a scratch folder for the fuzz entries");
    return fs::path(pattern);
  }();
  static const bool removedAtExit = std::atexit([] {
    std::error_code ec;
    fs::remove_all(folder, ec);
  }) == 0;
  (void)removedAtExit;
  return folder;
}

void removeProjectFiles(const fs::path& project) {
  std::error_code ec;
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) fs::remove(project.string() + suffix, ec);
}

}  // namespace crucible::fuzz
