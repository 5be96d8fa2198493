// SPDX-License-Identifier: GPL-3.0-or-later
// A kernel exported as a PyTorch C++/CUDA extension: three files that build
// with torch.utils.cpp_extension.load on first import:
//   <base>_kernel.cu    the exported kernel file with its host launcher (host_launcher.h)
//   <base>_binding.cpp  run(inputs...) -> outputs: checks every tensor's device,
//                       dtype, shape (the one the kernel was validated at) and
//                       contiguity, allocates the outputs, encodes the TMA tensor
//                       maps the kernel takes, launches on the current stream
//   <base>.py           the loader: `import <base>; <base>.run(x=...)` returns
//                       {output name: tensor}
// The same three files make a FlashInfer-Trace solution (flashinfer_solution.h).
// Pure: nothing here reads or writes files.
#pragma once
#include <string>
#include <vector>
#include "core/model/candidate.h"

namespace crucible {

struct TaskSpec;

struct ExportedFile {
  std::string path;     // relative to the export folder
  std::string content;
};

struct TorchExtensionNames {
  std::string kernelFile;   // "<base>_kernel.cu"
  std::string bindingFile;  // "<base>_binding.cpp"
  std::string loaderFile;   // "<base>.py"
  std::string module;       // "crucible_<base>": the compiled extension's name
};
// base: letters, digits and '_' are kept, anything else becomes '_'; a
// leading digit gets a '_' in front (Python module names).
TorchExtensionNames torchExtensionNames(const std::string& base);

// The binding's source for kernel `rule` of task `spec`. Throws
// std::invalid_argument when the launch rule does not evaluate at the task's axes.
std::string torchBindingSource(const TaskSpec& spec, const LaunchRule& rule, const std::string& description);

// The loader's source. `compileArch` is the arch the kernel was compiled and
// validated for ("sm_90a"); empty: PyTorch's default arch list.
std::string torchLoaderSource(const TaskSpec& spec, const LaunchRule& rule, const TorchExtensionNames& names,
                              const std::string& compileArch, const std::string& description);

// The three files. kernelFile is the exported .cu (kernel_export.h) with its
// host launcher; description says what the kernel is (one line).
std::vector<ExportedFile> torchExtensionFiles(const TaskSpec& spec, const Candidate& kernel,
                                              const std::string& kernelFile, const std::string& base,
                                              const std::string& description);

// Python keywords and builtins a tensor name cannot be as a parameter name get
// a trailing '_' ("lambda" -> "lambda_").
std::string pythonParameterName(const std::string& tensor);

}  // namespace crucible
