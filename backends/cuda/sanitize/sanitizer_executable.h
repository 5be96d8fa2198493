// SPDX-License-Identifier: GPL-3.0-or-later
// Where compute-sanitizer is: the first executable of that name on PATH, then
// in the toolkit's usual bin folder, then in $CUDA_HOME/bin.
#pragma once
#include <string>

namespace crucible {

struct SanitizerExecutable {
  std::string path;     // empty when none was found
  std::string whyNot;   // when empty path: where it was looked for, in words
};

// `pathVariable`: PATH's value; `toolkitBin`: usually /usr/local/cuda/bin;
// `cudaHome`: $CUDA_HOME's value ("" when unset).
SanitizerExecutable findComputeSanitizer(const std::string& pathVariable, const std::string& toolkitBin,
                                         const std::string& cudaHome);

}  // namespace crucible
