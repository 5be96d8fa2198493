// SPDX-License-Identifier: GPL-3.0-or-later
// The writable module-scope variables (`__device__` globals) of a cubin, read
// from its ELF symbol table. Such a variable outlives a launch: a kernel can
// count its launches in one, or cache results in one, and so behave
// differently once validation is over. The worker restores every one of them
// to its load-time contents before each candidate launch (module_state.h),
// so each launch starts from the module as loaded.
//
// The device heap outlives a launch too, and cannot be reset: a block one
// launch allocates and never frees is found by the next launch just below its
// own (H100: 320 bytes below; tests/gpu/adversarial/results/
// 2026-12-05-leftover-memory.md), and the heap's size cannot change once a
// kernel used it. The worker refuses kernels that call it (deviceHeapCalls).
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

// Every module-scope variable whose address a kernel can take: the writable
// ones above and the `__constant__` ones (object symbols in a .nv.constant*
// section). A kernel can turn a constant's address into a generic one
// (cvta.const) and reach the driver's memory around it (driver_pages_watch.h).
// `initialised` is false for every constant. Throws like writableGlobals.
std::vector<CubinGlobal> addressableGlobals(const std::string& cubin);

// The device-heap functions the cubin calls, in symbol-table order: the
// undefined symbols the driver resolves whose names hold "malloc" or end in
// "free" (malloc, free, __cuda_syscall_aligned_malloc for
// __nv_aligned_device_malloc). Throws CubinFormatError like writableGlobals.
std::vector<std::string> deviceHeapCalls(const std::string& cubin);

}  // namespace crucible::cuda
