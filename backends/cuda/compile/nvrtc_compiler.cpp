// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/compile/nvrtc_compiler.h"

#include <nvJitLink.h>
#include <nvrtc.h>

#include <chrono>
#include <memory>

#include "backends/cuda/compile/arch_selection.h"
#include "backends/cuda/compile/compile_log.h"
#include "backends/cuda/compile/cuda_include_dirs.h"
#include "backends/cuda/compile/ptx_features.h"

namespace crucible {
namespace {

struct ProgramDeleter {
  void operator()(nvrtcProgram p) const { nvrtcDestroyProgram(&p); }
};
using Program = std::unique_ptr<std::remove_pointer_t<nvrtcProgram>, ProgramDeleter>;

struct LinkDeleter {
  void operator()(nvJitLinkHandle h) const { nvJitLinkDestroy(&h); }
};
using Link = std::unique_ptr<std::remove_pointer_t<nvJitLinkHandle>, LinkDeleter>;

void addError(CompileReport& report, std::string message) {
  report.diagnostics.push_back(CompileDiagnostic{0, 0, "error", std::move(message)});
}

std::string programLog(nvrtcProgram p) {
  std::size_t size = 0;
  if (nvrtcGetProgramLogSize(p, &size) != NVRTC_SUCCESS || size <= 1) return {};
  std::string log(size, '\0');
  nvrtcGetProgramLog(p, log.data());
  log.resize(size - 1);  // drop the terminating NUL
  return log;
}

std::string linkInfoLog(nvJitLinkHandle h) {
  std::size_t size = 0;
  if (nvJitLinkGetInfoLogSize(h, &size) != NVJITLINK_SUCCESS || size <= 1) return {};
  std::string log(size, '\0');
  nvJitLinkGetInfoLog(h, log.data());
  log.resize(size - 1);
  return log;
}

std::string linkErrorLog(nvJitLinkHandle h) {
  std::size_t size = 0;
  if (nvJitLinkGetErrorLogSize(h, &size) != NVJITLINK_SUCCESS || size <= 1) return {};
  std::string log(size, '\0');
  nvJitLinkGetErrorLog(h, log.data());
  log.resize(size - 1);
  return log;
}

void appendLog(std::string& log, const std::string& part) {
  if (part.empty()) return;
  if (!log.empty() && log.back() != '\n') log += '\n';
  log += part;
}

// True when the PTX defines a kernel named exactly `entry`.
bool ptxHasEntry(const std::string& ptx, const std::string& entry) {
  const std::string needle = ".entry " + entry;
  for (std::size_t pos = ptx.find(needle); pos != std::string::npos; pos = ptx.find(needle, pos + 1)) {
    const std::size_t after = pos + needle.size();
    if (after < ptx.size() && (ptx[after] == '(' || ptx[after] == ' ' || ptx[after] == '\n' || ptx[after] == '\r'))
      return true;
  }
  return false;
}

// How a candidate becomes a cubin.
//
// Whole-program (NVRTC's own ptxas, PTX and cubin from one compile) for every
// target but the arch-specific ones. Until 2026-12-03 every kernel went PTX ->
// nvJitLink, which assembles PTX input as a separate compilation unit (ptxas -c),
// and there ptxas gives entry functions more registers than in a whole-program
// compile. Measured on the H200 with CUDA 13.0
// (tests/bench/results/2026-12-03-h200-whole-program.md): 46 registers instead of
// 32 for a transpose, 36-40 instead of 32 for cross-entropy, 54-96 instead of
// 46-62 for layernorm; fewer blocks fit an SM and the same kernels ran up to 17%
// slower. nvcc and Triton compile whole-program too.
//
// Arch-specific targets (sm_90a: wgmma, setmaxnreg) stay on nvJitLink: their
// kernels are launched with __launch_bounds__(THREADS, 1) and take the same
// registers either way, except the warp-specialized GEMM, whose setmaxnreg
// ptxas honours only whole-program (nvJitLink drops it, C7504) and which was
// tuned without it (it measured 1786 us without, 2221 us with it, at 8192^3:
// results/2026-11-29-h200-variants.md).
bool linksWithNvJitLink(const GpuArch& arch) { return arch.suffix == 'a'; }

// NVRTC: source -> PTX, and the cubin when the compile is whole-program. Fills
// diagnostics and the log (NVRTC's, with ptxas's resource report when it ran).
bool compileProgram(const CompileRequest& request, const GpuArch& arch, const std::vector<std::string>& includeDirs,
                    CompileReport& report, std::string& ptx, std::string* cubin) {
  nvrtcProgram raw = nullptr;
  if (auto rc = nvrtcCreateProgram(&raw, request.source.c_str(), NvrtcCompiler::kSourceName, 0, nullptr, nullptr);
      rc != NVRTC_SUCCESS) {
    addError(report, std::string("NVRTC could not create the program: ") + nvrtcGetErrorString(rc));
    return false;
  }
  Program program(raw);
  // Whole-program: the real arch, and ptxas's resource report (-v) in the log.
  std::vector<std::string> options{"--gpu-architecture=" + (cubin ? arch.sm() : arch.compute()), "-lineinfo",
                                   "-std=c++17"};
  if (cubin) options.push_back("--ptxas-options=-v");
  for (const auto& dir : includeDirs) options.push_back("-I" + dir);
  options.insert(options.end(), request.extraOptions.begin(), request.extraOptions.end());
  std::vector<const char*> argv;
  for (const auto& o : options) argv.push_back(o.c_str());

  const nvrtcResult rc = nvrtcCompileProgram(raw, static_cast<int>(argv.size()), argv.data());
  const std::string log = programLog(raw);
  appendLog(report.log, log);
  report.diagnostics = parseNvrtcLog(log, NvrtcCompiler::kSourceName);
  if (rc != NVRTC_SUCCESS) {
    bool reported = false;
    for (const auto& d : report.diagnostics) reported = reported || d.severity == "error";
    if (!reported) {
      // The front end passed and ptxas failed: its own error lines (they refer to PTX).
      auto assembler = parseLinkerErrors(log);
      report.diagnostics.insert(report.diagnostics.end(), assembler.begin(), assembler.end());
      reported = !assembler.empty();
    }
    if (!reported) addError(report, std::string("NVRTC: ") + nvrtcGetErrorString(rc));
    return false;
  }
  std::size_t size = 0;
  if (nvrtcGetPTXSize(raw, &size) != NVRTC_SUCCESS || size == 0) {
    addError(report, "NVRTC produced no PTX");
    return false;
  }
  ptx.assign(size, '\0');
  nvrtcGetPTX(raw, ptx.data());
  ptx.resize(size - 1);
  if (!cubin) return true;
  size = 0;
  if (nvrtcGetCUBINSize(raw, &size) != NVRTC_SUCCESS || size == 0) {
    addError(report, "NVRTC produced no cubin for " + arch.sm());
    return false;
  }
  cubin->assign(size, '\0');
  nvrtcGetCUBIN(raw, cubin->data());
  return true;
}

// nvJitLink: PTX -> cubin for the real arch, with ptxas's resource report.
bool linkToCubin(const std::string& ptx, const GpuArch& arch, CompileReport& report, std::string& cubin,
                 std::string& infoLog) {
  const std::string archOption = "-arch=" + arch.sm();
  const char* options[] = {archOption.c_str(), "-verbose", "-lineinfo"};
  nvJitLinkHandle raw = nullptr;
  if (auto rc = nvJitLinkCreate(&raw, 3, options); rc != NVJITLINK_SUCCESS) {
    addError(report, "nvJitLink could not start for " + arch.sm() + " (error " + std::to_string(rc) + ")");
    return false;
  }
  Link link(raw);
  nvJitLinkResult rc = nvJitLinkAddData(raw, NVJITLINK_INPUT_PTX, ptx.data(), ptx.size(), "candidate.ptx");
  if (rc == NVJITLINK_SUCCESS) rc = nvJitLinkComplete(raw);
  infoLog = linkInfoLog(raw);
  const std::string errors = linkErrorLog(raw);
  appendLog(report.log, infoLog);
  appendLog(report.log, errors);
  if (rc != NVJITLINK_SUCCESS) {
    auto diagnostics = parseLinkerErrors(errors);
    if (diagnostics.empty())
      addError(report, "nvJitLink failed for " + arch.sm() + " (error " + std::to_string(rc) + ")");
    report.diagnostics.insert(report.diagnostics.end(), diagnostics.begin(), diagnostics.end());
    return false;
  }
  std::size_t size = 0;
  if (nvJitLinkGetLinkedCubinSize(raw, &size) != NVJITLINK_SUCCESS || size == 0) {
    addError(report, "nvJitLink produced no cubin");
    return false;
  }
  cubin.assign(size, '\0');
  nvJitLinkGetLinkedCubin(raw, cubin.data());
  return true;
}

}  // namespace

NvrtcCompiler::NvrtcCompiler() : NvrtcCompiler(NvrtcCompilerOptions{}) {}

NvrtcCompiler::NvrtcCompiler(NvrtcCompilerOptions options)
    : options_(std::move(options)), includeDir_(options_.includeDir.empty() ? findCudaIncludeDir() : options_.includeDir) {}

std::string NvrtcCompiler::nvrtcVersion() {
  int major = 0, minor = 0;
  if (::nvrtcVersion(&major, &minor) != NVRTC_SUCCESS) return {};
  return std::to_string(major) + "." + std::to_string(minor);
}

CompileResult NvrtcCompiler::compile(const CompileRequest& request) {
  std::string ptx;
  return compile(request, ptx);
}

CompileResult NvrtcCompiler::compile(const CompileRequest& request, std::string& ptx) {
  ptx.clear();
  const auto start = std::chrono::steady_clock::now();
  CompileResult result;
  CompileReport& report = result.report;
  auto finish = [&] {
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!report.ok) result.cubin.clear();
    return result;
  };

  const std::string requestedArch = request.arch.empty() ? options_.defaultArch : request.arch;
  const auto parsed = parseGpuArch(requestedArch);
  if (!parsed) {
    report.arch = requestedArch;
    addError(report, "unknown GPU architecture '" + requestedArch + "' (expected sm_<number>, e.g. sm_90)");
    return finish();
  }
  const GpuArch arch = selectArch(*parsed, request.source);
  report.arch = arch.sm();
  if (request.source.empty()) {
    addError(report, "the candidate has no source");
    return finish();
  }

  const bool link = linksWithNvJitLink(arch);
  if (!compileProgram(request, arch, nvrtcIncludeDirs(includeDir_), report, ptx, link ? nullptr : &result.cubin)) {
    if (includeDir_.empty())
      appendLog(report.log, "note: no CUDA toolkit headers found (set CUDA_HOME); toolkit includes are unavailable");
    return finish();
  }
  report.features = scanPtxFeatures(ptx);
  if (!request.entry.empty() && !ptxHasEntry(ptx, request.entry)) {
    addError(report, "entry function '" + request.entry +
                         "' is not in the compiled module (declare it extern \"C\" __global__)");
    return finish();
  }

  std::string infoLog;
  if (link && !linkToCubin(ptx, arch, report, result.cubin, infoLog)) return finish();

  const auto stats = parsePtxasInfo(link ? infoLog : report.log);
  const PtxasFunctionStats* kernel = nullptr;
  if (auto it = stats.find(request.entry); !request.entry.empty() && it != stats.end()) {
    kernel = &it->second;
  } else {
    // No entry named: report the heaviest kernel of the module.
    for (const auto& [name, s] : stats)
      if (s.entry && (!kernel || s.registers > kernel->registers)) kernel = &s;
  }
  if (kernel) {
    report.registers = kernel->registers;
    report.staticSmemBytes = kernel->sharedBytes;
    report.localBytes = kernel->stackBytes + kernel->localBytes;
    report.spillStoreBytes = kernel->spillStoreBytes;
    report.spillLoadBytes = kernel->spillLoadBytes;
  } else {
    appendLog(report.log, "note: ptxas reported no resource usage for the entry; registers unknown");
  }
  report.ok = true;
  return finish();
}

}  // namespace crucible
