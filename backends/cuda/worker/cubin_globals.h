// SPDX-License-Identifier: GPL-3.0-or-later
// The writable module-scope variables (`__device__` globals) of a cubin, read
// from its ELF symbol table. Such a variable outlives a launch: a kernel can
// count its launches in one, or cache results in one, and so behave
// differently once validation is over. The worker restores every one of them
// to its load-time contents before each candidate launch (module_state.h),
// so each launch starts from the module as loaded.
//
// Pure host code (no driver): tested on cubins that NVRTC builds without a GPU.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace crucible::cuda {

struct CubinGlobal {
  std::string name;      // the symbol, as cuModuleGetGlobal takes it
  std::uint64_t bytes = 0;
  bool initialised = false;  // in .nv.global.init (has an initial image) rather than .nv.global (zeros)
};

class CubinFormatError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// Every object symbol in a .nv.global* section. Throws CubinFormatError when
// the image is not a well-formed 64-bit ELF (every read is bounds-checked).
std::vector<CubinGlobal> writableGlobals(const std::string& cubin);

}  // namespace crucible::cuda
