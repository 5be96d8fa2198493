// SPDX-License-Identifier: GPL-3.0-or-later
// A folder for the fuzz entries that must write a project file: one per
// process, reused for every input (libFuzzer runs millions), removed at exit.
#pragma once
#include <filesystem>

namespace crucible::fuzz {

const std::filesystem::path& fuzzScratchFolder();
// Removes a project file and the files SQLite keeps beside it.
void removeProjectFiles(const std::filesystem::path& project);

}  // namespace crucible::fuzz
