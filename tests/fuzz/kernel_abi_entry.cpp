// SPDX-License-Identifier: GPL-3.0-or-later
#include <string_view>
#include "core/task/kernel_abi.h"
#include "core/task/task_spec.h"
#include "tests/fuzz/fuzz_entries.h"

namespace crucible::fuzz {
namespace {

// A small valid spec with a tensor map, for inputs that are only a kernel source.
constexpr const char* kDefaultSpec = R"JSON({
  "format": 1, "name": "fuzz_copy_f32", "family": "copy",
  "axes": {"M": 64, "N": 64},
  "inputs": [{"name": "x", "dtype": "f32", "shape": ["M", "N"], "distribution": {"kind": "normal", "mean": 0, "stddev": 1}}],
  "outputs": [{"name": "y", "dtype": "f32", "shape": ["M", "N"]}],
  "scalars": ["M", "N"], "tolerances": {"y": {"rtol": 0, "atol": 0}},
  "flops": "0", "minBytes": "8*M*N", "entry": "copy_kernel",
  "baseline": {"source": "extern \"C\" __global__ void copy_kernel(const float* __restrict__ x, float* __restrict__ y, long long M, long long N, const __grid_constant__ CUtensorMap tmap_x) {}",
               "launch": {"entry": "copy_kernel", "grid": [16], "block": [256],
                          "tensorMaps": [{"tensor": "x", "boxRows": 16, "boxCols": 16, "swizzle": "64B"}]}},
  "oracle": {"source": "extern \"C\" __global__ void copy_oracle(const float* __restrict__ x, double* __restrict__ y, long long M, long long N) {}",
             "launch": {"entry": "copy_oracle", "grid": [16], "block": [256]}}
})JSON";

constexpr std::string_view kSeparator = "\n====\n";

}  // namespace

void kernelAbiEntry(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  std::string source(input);
  TaskSpec spec = parseTaskSpec(kDefaultSpec);
  if (const auto cut = input.find(kSeparator); cut != std::string_view::npos) {
    source = std::string(input.substr(cut + kSeparator.size()));
    try {
      spec = parseTaskSpec(std::string(input.substr(0, cut)));
    } catch (const TaskSpecError&) {
      // Keep the default spec: the source is still worth checking.
    }
  }
  const auto& maps = spec.baseline.launch.tensorMaps;
  sourceHasSignature(source, spec, KernelRole::Candidate, spec.entry, maps);
  sourceHasSignature(source, spec, KernelRole::Oracle, spec.oracle.launch.entry);
  tensorMapProblems(spec, maps, KernelRole::Candidate);
  tensorMapProblems(spec, maps, KernelRole::Oracle);
  // Whatever precedes it, a source ending in the exact signature has it.
  const std::string signature = kernelSignature(spec, KernelRole::Candidate, spec.entry, maps);
  if (!sourceHasSignature(source + "\n" + signature + " {}\n", spec, KernelRole::Candidate, spec.entry, maps))
    throw FuzzPropertyError("a source ending in the kernel's exact signature was not recognised");
}

}  // namespace crucible::fuzz
