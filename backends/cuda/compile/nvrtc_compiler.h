// SPDX-License-Identifier: GPL-3.0-or-later
// Compiles candidates in process: CUDA C++ -> PTX and the cubin for the real
// architecture in one whole-program NVRTC compile, or, for arch-specific targets
// (sm_90a), PTX with NVRTC then the cubin with nvJitLink (nvrtc_compiler.cpp says why).
// Needs the CUDA toolkit libraries but no GPU and no driver, so
// candidates compile on any machine and only evaluation needs the hardware.
#pragma once
#include <string>
#include <vector>
#include "core/engine/interfaces.h"

namespace crucible {

struct NvrtcCompilerOptions {
  std::string defaultArch = "sm_90";  // used when a request names no arch
  std::string includeDir;             // toolkit headers; empty: findCudaIncludeDir() at construction
};

class NvrtcCompiler : public Compiler {
public:
  NvrtcCompiler();
  explicit NvrtcCompiler(NvrtcCompilerOptions options);

  // Thread-safe and re-entrant: each call owns its NVRTC program and link
  // handle. Never throws for bad input: failures come back as report.ok=false
  // with diagnostics. Kernels must be `extern "C" __global__` so request.entry
  // names the symbol the worker loads; a missing entry is a compile error.
  CompileResult compile(const CompileRequest& request) override;
  // The same, also handing back the PTX NVRTC produced (with -lineinfo's .loc
  // directives; empty when NVRTC failed): what the kernel editor shows.
  CompileResult compile(const CompileRequest& request, std::string& ptx);

  // The file name the candidate's source is compiled under; diagnostics in it
  // map to candidate lines.
  static constexpr const char* kSourceName = "candidate.cu";

  // "13.0": the NVRTC library loaded (for fingerprints).
  static std::string nvrtcVersion();
  // The toolkit include directory in use ("" when none was found).
  const std::string& includeDir() const { return includeDir_; }

private:
  NvrtcCompilerOptions options_;
  std::string includeDir_;
};

}  // namespace crucible
