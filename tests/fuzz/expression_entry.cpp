// SPDX-License-Identifier: GPL-3.0-or-later
#include <map>
#include "core/task/expression.h"
#include "core/task/task_spec.h"
#include "tests/fuzz/fuzz_entries.h"

namespace crucible::fuzz {

void expressionEntry(const std::uint8_t* data, std::size_t size) {
  static const std::map<std::string, std::int64_t> axes = {
      {"M", 8192}, {"N", 4096}, {"K", 1}, {"V", 32000}, {"BIG", std::int64_t{1} << 62}};
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    evaluateAxisExpression(text, axes);
  } catch (const ExpressionError&) {
  }
  // The spec-facing wrapper must refuse the same way, as a TaskSpecError.
  try {
    evalExpression(text, axes);
  } catch (const TaskSpecError&) {
  }
}

}  // namespace crucible::fuzz
