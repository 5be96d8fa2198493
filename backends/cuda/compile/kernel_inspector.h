// SPDX-License-Identifier: GPL-3.0-or-later
// The kernel editor's compiler (issue 17): NVRTC (nvJitLink for sm_90a) as
// every candidate is compiled (NvrtcCompiler), keeping the PTX, then nvdisasm on
// the cubin for the SASS where the toolkit has it. Both listings come with
// their source lines (core/model/kernel_inspection.h). Needs no GPU.
#pragma once
#include <string>
#include "backends/cuda/compile/nvrtc_compiler.h"
#include "core/model/kernel_inspection.h"

namespace crucible {

struct KernelInspectorOptions {
  std::string nvdisasm;           // path; empty: found on PATH, in /usr/local/cuda/bin or $CUDA_HOME/bin
  double disassemblyTimeout = 30; // seconds nvdisasm may take
};

class NvrtcKernelInspector : public KernelInspector {
public:
  explicit NvrtcKernelInspector(NvrtcCompiler& compiler, KernelInspectorOptions options = {});
  // Thread-safe (NvrtcCompiler is; every call has its own files and process).
  KernelInspection inspect(const InspectionRequest& request) override;

private:
  NvrtcCompiler& compiler_;
  KernelInspectorOptions options_;
  std::string nvdisasmMissing_;   // why there is no nvdisasm, when there is none
};

}  // namespace crucible
