// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/task/kernel_abi.h"
#include "core/task/launch_variables.h"
#include "core/task/task_library.h"
#include "core/task/task_spec.h"
#include "tests/fuzz/fuzz_entries.h"

namespace crucible::fuzz {
namespace {

// What `crucible-cli task show` and the roofline do with a spec that parsed.
void useSpec(const TaskSpec& spec) {
  for (const auto* list : {&spec.inputs, &spec.outputs})
    for (const TensorSpec& t : *list) {
      resolveShape(spec, t);
      elementCount(spec, t);
    }
  evalExpression(spec.flops, spec.axes);
  evalExpression(spec.minBytes, spec.axes);
  for (const SpecKernel* k : {&spec.baseline, &spec.oracle}) {
    // A parsed rule evaluates at every SM count it was checked at (and over the axes alone
    // when it does not name sm_count).
    for (const std::int64_t smCount : smCountsCheckedWithoutGpu(k->launch)) {
      const auto names = launchNames(spec.axes, smCount);
      for (int i = 0; i < 3; ++i) {
        evalExpression(k->launch.grid[i], names);
        evalExpression(k->launch.block[i], names);
      }
      evalExpression(k->launch.dynamicSmemBytes, names);
    }
  }
  kernelSignature(spec, KernelRole::Candidate, spec.entry, spec.baseline.launch.tensorMaps);
  kernelSignature(spec, KernelRole::Oracle, spec.oracle.launch.entry);
  tensorMapProblems(spec, spec.baseline.launch.tensorMaps);
}

}  // namespace

void taskSpecEntry(const std::uint8_t* data, std::size_t size) {
  const std::optional<TaskSpec> parsed = parsedSpec(data, size);
  if (!parsed) return;
  const TaskSpec& spec = *parsed;
  const std::string text(reinterpret_cast<const char*>(data), size);
  useSpec(spec);
  taskRecord(text);
  // What the project stores and `task show --json` writes must read back as the same spec.
  const std::string written = toJson(spec);
  TaskSpec again;
  try {
    again = parseTaskSpec(written);
  } catch (const TaskSpecError& e) {
    throw FuzzPropertyError(std::string("toJson wrote a spec that does not parse: ") + e.what());
  }
  if (toJson(again) != written) throw FuzzPropertyError("toJson(parseTaskSpec(toJson(s))) differs from toJson(s)");
}

}  // namespace crucible::fuzz
