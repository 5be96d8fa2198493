// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/compile/kernel_inspector.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include "backends/cuda/sanitize/bounded_process.h"
#include "backends/cuda/sanitize/sanitizer_executable.h"
#include "core/io/utf8_text.h"
#include "core/task/kernel_abi.h"
#include "core/task/task_spec.h"

namespace crucible {
namespace {

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

// What is wrong with the kernel's signature for the task (empty when nothing).
std::vector<std::string> abiProblems(const InspectionRequest& request) {
  if (request.taskSpecJson.empty()) return {};
  TaskSpec spec;
  try {
    spec = parseTaskSpec(request.taskSpecJson);
  } catch (const std::exception& e) {
    return {std::string("the task's spec does not parse, so the signature cannot be checked: ") + e.what()};
  }
  std::vector<std::string> problems = tensorMapProblems(spec, request.launch.tensorMaps);
  const std::string entry = request.launch.entry.empty() ? spec.entry : request.launch.entry;
  if (!sourceHasSignature(request.source, spec, KernelRole::Candidate, entry, request.launch.tensorMaps))
    problems.push_back("the source has no kernel with the task's signature; expected:\n" +
                       kernelSignature(spec, KernelRole::Candidate, entry, request.launch.tensorMaps));
  return problems;
}

// A private file for the cubin: removed when it goes out of scope.
class TemporaryFile {
public:
  explicit TemporaryFile(const std::string& contents) {
    std::string pattern = (std::filesystem::temp_directory_path() / "crucible-inspect-XXXXXX").string();
    const int fd = ::mkstemp(pattern.data());
    if (fd < 0) return;
    ::close(fd);
    path_ = pattern;
    std::ofstream(path_, std::ios::binary | std::ios::trunc) << contents;
  }
  ~TemporaryFile() {
    if (!path_.empty()) ::unlink(path_.c_str());
  }
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;
  const std::string& path() const { return path_; }

private:
  std::string path_;
};

std::string firstLine(const std::string& text) {
  const auto end = text.find('\n');
  return utf8Prefix(std::string_view(text).substr(0, end), 300);
}

}  // namespace

NvrtcKernelInspector::NvrtcKernelInspector(NvrtcCompiler& compiler, KernelInspectorOptions options)
    : compiler_(compiler), options_(std::move(options)) {
  if (options_.nvdisasm.empty()) {
    const ToolkitExecutable found =
        findToolkitExecutable("nvdisasm", "cuda-nvdisasm", env("PATH"), "/usr/local/cuda/bin", env("CUDA_HOME"));
    options_.nvdisasm = found.path;
    if (found.path.empty()) nvdisasmMissing_ = "nvdisasm is not installed (" + found.whyNot + "): no SASS, PTX only";
  }
}

KernelInspection NvrtcKernelInspector::inspect(const InspectionRequest& request) {
  KernelInspection out;
  out.abiProblems = abiProblems(request);
  CompileRequest compile;
  compile.source = request.source;
  compile.entry = request.launch.entry;
  compile.arch = request.arch;
  const CompileResult result = compiler_.compile(compile, out.ptx);
  out.report = result.report;
  out.ptxLines = ptxLineMap(out.ptx, NvrtcCompiler::kSourceName);
  if (result.cubin.empty()) {
    out.sassUnavailable = "no SASS: the kernel did not compile";
    return out;
  }
  if (options_.nvdisasm.empty()) {
    out.sassUnavailable = nvdisasmMissing_;
    return out;
  }
  const TemporaryFile cubin(result.cubin);
  if (cubin.path().empty()) {
    out.sassUnavailable = "no SASS: no temporary file could be made for the cubin";
    return out;
  }
  BoundedProcessOptions run;
  run.argv = {options_.nvdisasm, "--print-line-info", "--print-code", cubin.path()};
  run.environment = {{"PATH", "/usr/bin:/bin"}, {"LC_ALL", "C"}};  // nothing of the user's environment
  run.timeoutSeconds = options_.disassemblyTimeout;
  run.outputCap = 32u << 20;
  const BoundedProcessResult disassembly = runBounded(run);
  if (!disassembly.started) {
    out.sassUnavailable = "nvdisasm could not be started: " + disassembly.startError;
  } else if (disassembly.timedOut) {
    out.sassUnavailable = "nvdisasm took longer than its limit and was stopped";
  } else if (disassembly.exitCode != 0) {
    out.sassUnavailable = "nvdisasm failed: " + firstLine(disassembly.output);
  } else if (disassembly.outputBytes > disassembly.output.size()) {
    out.sassUnavailable = "the SASS listing is larger than " + std::to_string(run.outputCap >> 20) + " MiB";
  } else {
    out.sass = disassembly.output;
    out.sassLines = sassLineMap(out.sass, NvrtcCompiler::kSourceName);
  }
  return out;
}

}  // namespace crucible
