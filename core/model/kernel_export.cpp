// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/kernel_export.h"

#include <ctime>
#include <sstream>
#include <stdexcept>
#include "core/model/host_launcher.h"
#include "core/model/model_json.h"
#include "core/task/kernel_abi.h"
#include "core/task/launch_variables.h"
#include "core/task/task_spec.h"

namespace crucible {

namespace {
// Prefixes every line of a (possibly multi-line) text with "// ".
void commentLines(std::ostringstream& out, const std::string& text) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) out << "//   " << line << '\n';
}

// The kernel cannot run without its tensor maps: how to encode each, and the
// rule as JSON (the project file's form) for a program that launches it.
void tensorMapLines(std::ostringstream& out, const LaunchRule& rule, const TaskSpec* spec) {
  out << "// Tensor maps (TMA), passed by value after the scalars: encode each on the host with\n"
      << "// cuTensorMapEncodeTiled, rank 2 over the tensor as a row-major matrix (cols = its last axis, rows =\n"
      << "// the product of the others): globalDim {cols, rows}, globalStrides {cols x element size},\n"
      << "// boxDim {box cols, box rows}, elementStrides {1, 1}, no interleave, L2 promotion 256B, OOB fill none.\n";
  for (const TensorMapRule& m : rule.tensorMaps) {
    out << "//   " << tensorMapParameterName(m) << ": " << m.tensor;
    if (spec) {
      try {
        const TensorMatrix matrix = tensorMatrix(*spec, m.tensor);
        out << " (" << matrix.rows << " x " << matrix.cols << ")";
      } catch (const std::invalid_argument&) {
        out << " (not a tensor of this task)";
      }
    }
    out << ", box " << m.boxRows << " x " << m.boxCols << " (rows x cols), swizzle " << m.swizzle << "\n";
  }
  out << "// Launch rule: " << toJson(rule).dump() << "\n";
}

std::string fixed(double v, int digits) {
  std::ostringstream s;
  s.setf(std::ios::fixed);
  s.precision(digits);
  s << v;
  return s.str();
}
}  // namespace

std::string formatUtc(std::int64_t unixSeconds) {
  const std::time_t t = static_cast<std::time_t>(unixSeconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S UTC", &tm);
  return buf;
}

std::string launchSnippet(const LaunchRule& rule, const TaskSpec* spec) {
  std::ostringstream out;
  out << "// Launch (grid, block and dynamic shared memory are expressions over the task's axes";
  if (spec && !spec->axes.empty()) {
    out << ":";
    bool first = true;
    for (const auto& [axis, value] : spec->axes) {
      out << (first ? " " : ", ") << axis << " = " << value;
      first = false;
    }
  }
  out << "):\n";
  if (usesSmCount(rule))
    out << "// sm_count is the SM count of the device it launches on (cudaDeviceGetAttribute with\n"
        << "// cudaDevAttrMultiProcessorCount); '/' and '%' truncate as in C, ceil_div rounds up.\n";
  out << "//   dim3 grid(" << rule.grid[0] << ", " << rule.grid[1] << ", " << rule.grid[2] << ");\n";
  out << "//   dim3 block(" << rule.block[0] << ", " << rule.block[1] << ", " << rule.block[2] << ");\n";
  std::string args = "/* inputs..., outputs..., scalars (long long) */";
  if (spec) {
    args.clear();
    auto add = [&](const std::string& a) { args += (args.empty() ? "" : ", ") + a; };
    for (const auto& t : spec->inputs) add(t.name);
    for (const auto& t : spec->outputs) add(t.name);
    for (const auto& s : spec->scalars) add(s);
    for (const auto& m : rule.tensorMaps) add(tensorMapParameterName(m));
  } else if (!rule.tensorMaps.empty()) {
    args.insert(args.size() - 3, ", tensor maps");
  }
  out << "//   " << rule.entry << "<<<grid, block, " << rule.dynamicSmemBytes << ">>>(" << args << ");\n";
  if (!rule.tensorMaps.empty()) tensorMapLines(out, rule, spec);
  return out.str();
}

nlohmann::json exportedKernelJson(const std::string& task, const std::string& family, const std::string& specJson,
                                  const Candidate& c) {
  nlohmann::json launch = toJson(c.launch);
  // A kernel that takes tensor maps cannot be launched without them: a reader never has to guess.
  if (!launch.contains("tensorMaps")) launch["tensorMaps"] = nlohmann::json::array();
  return {{"task", task},
          {"family", family},
          {"spec", nlohmann::json::parse(specJson)},
          {"entry", c.launch.entry},
          {"grid", launch["grid"]},
          {"block", launch["block"]},
          {"smem", c.launch.dynamicSmemBytes},
          {"launch", launch},
          {"architecture", c.architectureKey}};
}

std::string exportedKernelFile(const Candidate& kernel, const std::string& taskName, const TaskSpec* spec,
                               const Seal* seal) {
  if (seal && kernel.id != seal->candidateId)
    throw std::invalid_argument("sealedKernelFile: candidate #" + std::to_string(kernel.id) +
                                " is not the sealed candidate #" + std::to_string(seal->candidateId));
  std::ostringstream out;
  if (seal) out << "// Crucible sealed kernel: seal #" << seal->id << " of task " << taskName << "\n";
  else out << "// Crucible kernel of task " << taskName << "\n";
  out << "// Candidate #" << kernel.id << " of run #" << (seal ? seal->runId : kernel.runId) << ", generation "
      << kernel.generation;
  if (!kernel.architectureKey.empty()) out << ", architecture " << kernel.architectureKey;
  out << "\n";
  if (seal) out << "// Sealed " << formatUtc(seal->sealedAt) << "\n";
  out << "//\n";
  if (seal) {
    out << "// Median " << fixed(seal->medianUs, 3) << " us, " << fixed(seal->speedup, 3)
        << "x the reference it was measured against\n";
  } else if (kernel.timing) {
    out << "// Median " << fixed(kernel.timing->medianUs, 3) << " us, " << fixed(kernel.timing->speedup, 3)
        << "x the reference it was measured against (" << fixed(kernel.timing->referenceMedianUs, 3)
        << " us), SM clock " << fixed(kernel.timing->smClockMHz, 0) << " MHz\n";
  } else {
    out << "// Not timed\n";
  }
  if (kernel.compile && kernel.compile->ok)
    out << "// " << kernel.compile->registers << " registers, " << kernel.compile->staticSmemBytes
        << " B static shared memory, " << kernel.compile->spillStoreBytes << " B spill stores (" << kernel.compile->arch
        << ")\n";
  if (seal) {
    const Fingerprint& fp = seal->fingerprint;
    out << "// Measured on " << fp.gpu << " (" << fp.arch << "), driver " << fp.driver << ", CUDA runtime "
        << fp.cudaRuntime << ", NVRTC " << fp.nvrtc << ", SM clock " << fixed(fp.smClockMHz, 0)
        << " MHz, memory clock " << fixed(fp.memClockMHz, 0) << " MHz";
    if (!fp.host.empty()) out << ", host " << fp.host;
    out << "\n//\n// Validation report:\n";
    commentLines(out, seal->validationReportJson);
    out << "// Performance report:\n";
    commentLines(out, seal->performanceReportJson);
  }
  out << "//\n" << launchSnippet(kernel.launch, spec) << "\n";
  out << kernel.source;
  if (!kernel.source.empty() && kernel.source.back() != '\n') out << '\n';
  if (spec) {
    try {
      out << hostLauncherSource(*spec, kernel.launch);
    } catch (const std::invalid_argument& e) {
      // The file stays useful as the kernel alone; the reader learns why there is no launcher.
      out << "\n// No host launcher: " << e.what() << "\n";
    }
  }
  return out.str();
}

std::string sealedKernelFile(const Seal& seal, const Candidate& kernel, const std::string& taskName,
                             const TaskSpec* spec) {
  return exportedKernelFile(kernel, taskName, spec, &seal);
}

}  // namespace crucible
