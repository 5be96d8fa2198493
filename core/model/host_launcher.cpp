// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/host_launcher.h"

#include <cctype>
#include <sstream>
#include <stdexcept>
#include "core/task/expression.h"
#include "core/task/kernel_abi.h"
#include "core/task/launch_variables.h"
#include "core/task/task_spec.h"

namespace crucible {
namespace {

// Above this, a kernel must opt in to its dynamic shared memory (cudaFuncSetAttribute).
constexpr long long kDefaultDynamicSmemLimit = 48 * 1024;

// The local functions a launcher that computes its rule at launch time defines, by the
// expression language's names (expression.h: ceil_div rounds toward +infinity for any signs).
const char* const kCeilDivCode =
    "  const auto crucible_ceil_div = [](long long a, long long b) {\n"
    "    const long long q = a / b;\n"
    "    return a % b != 0 && (a < 0) == (b < 0) ? q + 1 : q;\n"
    "  };\n";
const char* const kMinCode = "  const auto crucible_min = [](long long a, long long b) { return a < b ? a : b; };\n";
const char* const kMaxCode = "  const auto crucible_max = [](long long a, long long b) { return a > b ? a : b; };\n";

// One of the rule's expressions as the launcher has it: a constant at the task's axes, or
// (when it uses sm_count) C++ computing it at launch time.
struct LauncherValue {
  std::string code;
  bool perDevice = false;
};

// `expr` as C++ over `long long crucible_sm_count` (the launcher's locals are prefixed: a
// tensor may be named like anything else): axes become their values, literals `LL`
// literals, the functions the lambdas above, and each operator stands apart so that
// "--M" stays two negations. '/' and '%' truncate toward zero in C++ as in the
// expression language, so the launcher computes what the worker computed.
std::string cppExpression(const std::string& expr, const TaskSpec& spec, bool& ceilDiv, bool& min, bool& max) {
  const auto nameChar = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  std::string out;
  for (std::size_t i = 0; i < expr.size();) {
    const char c = expr[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      std::size_t end = i;
      while (end < expr.size() && std::isdigit(static_cast<unsigned char>(expr[end]))) ++end;
      out += expr.substr(i, end - i) + "LL";
      i = end;
    } else if (nameChar(c)) {
      std::size_t end = i;
      while (end < expr.size() && nameChar(expr[end])) ++end;
      const std::string name = expr.substr(i, end - i);
      if (name == kSmCountName) out += "crucible_sm_count";
      else if (name == "ceil_div") out += "crucible_ceil_div", ceilDiv = true;
      else if (name == "min") out += "crucible_min", min = true;
      else if (name == "max") out += "crucible_max", max = true;
      else if (const auto axis = spec.axes.find(name); axis != spec.axes.end()) out += "(" + std::to_string(axis->second) + "LL)";
      else throw std::invalid_argument("unknown name '" + name + "' in expression '" + expr + "'");
      i = end;
    } else if (c == '(' || c == ')') {
      out += c;
      ++i;
    } else if (c == ',') {
      out += ", ";
      ++i;
    } else {
      out += std::string(" ") + c + " ";
      ++i;
    }
  }
  return out;
}

LauncherValue evaluated(const std::string& what, const std::string& expr, const TaskSpec& spec, bool& ceilDiv,
                        bool& min, bool& max) {
  // Checked as a task's rule is checked without a GPU (launch_variables.h): at the task's axes,
  // and at each SM count it could meet when it uses sm_count.
  for (const std::int64_t smCount : smCountsCheckedWithoutGpu(expr)) {
    try {
      const long long v = evaluateAxisExpression(expr, launchNames(spec.axes, smCount));
      if (smCount == 0) return {std::to_string(v), false};
    } catch (const ExpressionError& e) {
      throw std::invalid_argument("the launch rule's " + what + " '" + expr + "' does not evaluate at the task's axes" +
                                  smCountNote(smCount) + ": " + e.what());
    }
  }
  return {cppExpression(expr, spec, ceilDiv, min, max), true};
}

// "const float* __restrict__" -> "const float*": the cast target for a launcher argument.
std::string withoutRestrict(std::string type) {
  const std::string restrict = "__restrict__";
  for (auto at = type.find(restrict); at != std::string::npos; at = type.find(restrict)) type.erase(at, restrict.size());
  while (!type.empty() && type.back() == ' ') type.pop_back();
  return type;
}

}  // namespace

std::string hostLauncherName(const LaunchRule& rule) { return "crucible_launch_" + rule.entry; }

std::vector<HostLauncherParameter> hostLauncherParameters(const TaskSpec& spec, const LaunchRule& rule) {
  std::vector<HostLauncherParameter> params;
  for (const TensorSpec& t : spec.inputs) params.push_back({"const void*", t.name});
  for (const TensorSpec& t : spec.outputs) params.push_back({"void*", t.name});
  for (const TensorMapRule& m : rule.tensorMaps) params.push_back({"const void*", tensorMapParameterName(m)});
  params.push_back({"cudaStream_t", "stream"});
  return params;
}

std::string hostLauncherSource(const TaskSpec& spec, const LaunchRule& rule) {
  bool ceilDiv = false, min = false, max = false;
  LauncherValue grid[3], block[3];
  for (int i = 0; i < 3; ++i) {
    grid[i] = evaluated("grid[" + std::to_string(i) + "]", rule.grid[i], spec, ceilDiv, min, max);
    block[i] = evaluated("block[" + std::to_string(i) + "]", rule.block[i], spec, ceilDiv, min, max);
  }
  const LauncherValue smem =
      evaluated("dynamicSmemBytes", rule.dynamicSmemBytes.empty() ? "0" : rule.dynamicSmemBytes, spec, ceilDiv, min, max);
  const bool perDevice = usesSmCount(rule);

  std::ostringstream out;
  out << "\n#if !defined(__CUDACC_RTC__)\n"
      << "// Host launcher written by Crucible's export (NVRTC skips it: the kernel above compiles alone).\n"
      << "// It launches the kernel with its launch rule at the shape it was validated at ("
      << describeAxes(spec.axes) << ");\n"
      << "// at another shape the kernel is unchecked. Tensors are device pointers to contiguous row-major\n"
      << "// buffers of the task's dtypes and shapes";
  if (!rule.tensorMaps.empty())
    out << "; each tmap_* points at the 128-byte CUtensorMap the caller encoded\n"
        << "// for that tensor (cuTensorMapEncodeTiled, as described above the kernel)";
  out << ". Returns the launch's error (cudaSuccess when it was queued).\n";
  if (perDevice)
    out << "// The launch rule uses sm_count: the SM count of the current device, asked at every launch\n"
        << "// (cudaDevAttrMultiProcessorCount), as Crucible's worker used its GPU's.\n";
  out << "#include <cuda_runtime.h>\n"
      << "extern \"C\" cudaError_t " << hostLauncherName(rule) << "(";
  const auto params = hostLauncherParameters(spec, rule);
  for (std::size_t i = 0; i < params.size(); ++i) out << (i ? ", " : "") << params[i].type << " " << params[i].name;
  out << ") {\n";
  if (!perDevice) {
    out << "  const dim3 grid(" << grid[0].code << ", " << grid[1].code << ", " << grid[2].code << ");\n"
        << "  const dim3 block(" << block[0].code << ", " << block[1].code << ", " << block[2].code << ");\n"
        << "  const size_t smem = " << smem.code << ";\n";
    if (std::stoll(smem.code) > kDefaultDynamicSmemLimit)
      out << "  const cudaError_t opt_in = cudaFuncSetAttribute(" << rule.entry
          << ", cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem));\n"
          << "  if (opt_in != cudaSuccess) return opt_in;\n";
  } else {
    out << "  int crucible_device = 0, crucible_sms = 0;\n"
        << "  cudaError_t crucible_asked = cudaGetDevice(&crucible_device);\n"
        << "  if (crucible_asked != cudaSuccess) return crucible_asked;\n"
        << "  crucible_asked = cudaDeviceGetAttribute(&crucible_sms, cudaDevAttrMultiProcessorCount, crucible_device);\n"
        << "  if (crucible_asked != cudaSuccess) return crucible_asked;\n"
        << "  const long long crucible_sm_count = crucible_sms;\n";
    if (ceilDiv) out << kCeilDivCode;
    if (min) out << kMinCode;
    if (max) out << kMaxCode;
    const char* axis[3] = {"x", "y", "z"};
    // CUDA's limits, as the worker checks them: a value outside is not launched.
    const long long gridMax[3] = {2147483647LL, 65535, 65535}, blockMax[3] = {1024, 1024, 64};
    std::string checks;
    for (int i = 0; i < 3; ++i) {
      out << "  const long long crucible_grid_" << axis[i] << " = " << grid[i].code << ";\n";
      checks += std::string(i ? " ||\n      " : "") + "crucible_grid_" + axis[i] + " < 1 || crucible_grid_" + axis[i] + " > " +
                std::to_string(gridMax[i]) + "LL";
    }
    for (int i = 0; i < 3; ++i) {
      out << "  const long long crucible_block_" << axis[i] << " = " << block[i].code << ";\n";
      checks += std::string(" ||\n      ") + "crucible_block_" + axis[i] + " < 1 || crucible_block_" + axis[i] + " > " +
                std::to_string(blockMax[i]) + "LL";
    }
    out << "  const long long crucible_smem = " << smem.code << ";\n"
        << "  if (" << checks << " ||\n      crucible_block_x * crucible_block_y * crucible_block_z > 1024LL ||\n      crucible_smem < 0 || crucible_smem > 2147483647LL)\n"
        << "    return cudaErrorInvalidConfiguration;\n"
        << "  const dim3 grid(static_cast<unsigned>(crucible_grid_x), static_cast<unsigned>(crucible_grid_y),\n"
        << "                  static_cast<unsigned>(crucible_grid_z));\n"
        << "  const dim3 block(static_cast<unsigned>(crucible_block_x), static_cast<unsigned>(crucible_block_y),\n"
        << "                   static_cast<unsigned>(crucible_block_z));\n"
        << "  const size_t smem = static_cast<size_t>(crucible_smem);\n"
        << "  if (smem > " << kDefaultDynamicSmemLimit << ") {\n"
        << "    const cudaError_t opt_in = cudaFuncSetAttribute(" << rule.entry
        << ", cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem));\n"
        << "    if (opt_in != cudaSuccess) return opt_in;\n"
        << "  }\n";
  }
  for (const TensorMapRule& m : rule.tensorMaps) {
    const std::string name = tensorMapParameterName(m);
    out << "  CUtensorMap " << name << "_value;\n"
        << "  __builtin_memcpy(&" << name << "_value, " << name << ", sizeof " << name << "_value);\n";
  }
  out << "  " << rule.entry << "<<<grid, block, smem, stream>>>(";
  bool first = true;
  for (const KernelParameter& p : kernelParameters(spec, KernelRole::Candidate, rule.tensorMaps)) {
    out << (first ? "" : ", ");
    first = false;
    if (p.type == tensorMapParameterType()) {
      out << p.name << "_value";
    } else if (p.type.find('*') != std::string::npos) {
      out << "static_cast<" << withoutRestrict(p.type) << ">(" << p.name << ")";
    } else {  // a scalar: an axis of the validated shape
      const auto axis = spec.axes.find(p.name);
      if (axis == spec.axes.end())
        throw std::invalid_argument("scalar '" + p.name + "' is not an axis of task '" + spec.name + "'");
      out << axis->second << "LL";
    }
  }
  out << ");\n"
      << "  return cudaGetLastError();\n"
      << "}\n"
      << "#endif  // !__CUDACC_RTC__\n";
  return out.str();
}

}  // namespace crucible
