// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/fuzz/fuzz_entries.h"

namespace crucible::fuzz {

const std::vector<NamedFuzzEntry>& proposerFuzzEntries() {
  static const std::vector<NamedFuzzEntry> entries = {
      {"operator_task", operatorTaskEntry},
      {"tunable_kernel", tunableKernelEntry},
      {"model_reply", modelReplyEntry},
  };
  return entries;
}

FuzzEntry findFuzzEntry(const std::string& name) {
  for (const auto* list : {&fuzzEntries(), &proposerFuzzEntries()})
    for (const auto& e : *list)
      if (name == e.name) return e.entry;
  return nullptr;
}

}  // namespace crucible::fuzz
