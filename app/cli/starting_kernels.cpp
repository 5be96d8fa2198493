// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/starting_kernels.h"

#include <filesystem>

namespace crucible::cli {

StartingKernel readStartingKernel(const KernelOption& option) {
  try {
    return crucible::readStartingKernel(option.kernel, option.tune);
  } catch (const StartingKernelError& e) {
    if (!e.noLaunchRule()) throw UsageError(e.what());
    throw UsageError("--kernel " + option.kernel + ": no launch rule: give --tune FILE, put " +
                     std::filesystem::path(option.kernel).stem().string() +
                     ".tune.json beside it, or a /* crucible-tune {...} */ comment in it (resources/tasks/README.md, "
                     "\"Tunable kernels\")");
  }
}

std::vector<StartingKernel> readStartingKernels(const Options& o) {
  std::vector<StartingKernel> out;
  for (const KernelOption& option : kernelOptions(o)) {
    out.push_back(readStartingKernel(option));
    if (const std::string clash = startingKernelNameClash(out); !clash.empty()) throw UsageError(clash);
  }
  return out;
}

void checkStartingKernels(const std::vector<StartingKernel>& kernels, const std::string& taskSpecJson) {
  try {
    crucible::checkStartingKernelsFit(kernels, taskSpecJson);
  } catch (const StartingKernelError& e) {
    throw UsageError(e.what());
  }
}

}  // namespace crucible::cli
