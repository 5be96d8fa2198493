// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/fuzz/fuzz_entries.h"

namespace crucible::fuzz {

std::optional<TaskSpec> parsedSpec(const std::uint8_t* data, std::size_t size) {
  try {
    return parseTaskSpec(std::string(reinterpret_cast<const char*>(data), size));
  } catch (const TaskSpecError&) {
    return std::nullopt;
  }
}

const std::vector<NamedFuzzEntry>& fuzzEntries() {
  static const std::vector<NamedFuzzEntry> entries = {
      {"task_spec", taskSpecEntry},
      {"expression", expressionEntry},
      {"kernel_abi", kernelAbiEntry},
      {"project_open", projectOpenEntry},
      {"knowledge_import", knowledgeImportEntry},
      {"cubin_image", cubinImageEntry},
  };
  return entries;
}

}  // namespace crucible::fuzz
