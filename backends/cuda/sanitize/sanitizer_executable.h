// SPDX-License-Identifier: GPL-3.0-or-later
// Where a CUDA toolkit program is (compute-sanitizer, nvdisasm, ...): the
// first executable of that name on PATH, then in the toolkit's usual bin
// folder, then in $CUDA_HOME/bin.
#pragma once
#include <string>

namespace crucible {

struct SanitizerExecutable {
  std::string path;     // empty when none was found
  std::string whyNot;   // when empty path: where it was looked for, in words
};
using ToolkitExecutable = SanitizerExecutable;

// `pathVariable`: PATH's value; `toolkitBin`: usually /usr/local/cuda/bin;
// `cudaHome`: $CUDA_HOME's value ("" when unset); `package`: the toolkit
// package that installs it, for the message when it is missing.
ToolkitExecutable findToolkitExecutable(const std::string& name, const std::string& package,
                                        const std::string& pathVariable, const std::string& toolkitBin,
                                        const std::string& cudaHome);

SanitizerExecutable findComputeSanitizer(const std::string& pathVariable, const std::string& toolkitBin,
                                         const std::string& cudaHome);

}  // namespace crucible
