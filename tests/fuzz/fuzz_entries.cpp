// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/fuzz/fuzz_entries.h"

namespace crucible::fuzz {

const std::vector<NamedFuzzEntry>& fuzzEntries() {
  static const std::vector<NamedFuzzEntry> entries = {
      {"task_spec", taskSpecEntry},
      {"expression", expressionEntry},
      {"kernel_abi", kernelAbiEntry},
      {"project_open", projectOpenEntry},
  };
  return entries;
}

FuzzEntry findFuzzEntry(const std::string& name) {
  for (const auto& e : fuzzEntries())
    if (name == e.name) return e.entry;
  return nullptr;
}

}  // namespace crucible::fuzz
