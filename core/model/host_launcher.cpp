// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/host_launcher.h"

#include <sstream>
#include <stdexcept>
#include "core/task/expression.h"
#include "core/task/kernel_abi.h"
#include "core/task/task_spec.h"

namespace crucible {
namespace {

// Above this, a kernel must opt in to its dynamic shared memory (cudaFuncSetAttribute).
constexpr long long kDefaultDynamicSmemLimit = 48 * 1024;

long long evaluated(const std::string& what, const std::string& expr, const TaskSpec& spec) {
  try {
    return evaluateAxisExpression(expr, spec.axes);
  } catch (const ExpressionError& e) {
    throw std::invalid_argument("the launch rule's " + what + " '" + expr + "' does not evaluate at the task's axes: " +
                                e.what());
  }
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
  long long grid[3], block[3];
  for (int i = 0; i < 3; ++i) {
    grid[i] = evaluated("grid[" + std::to_string(i) + "]", rule.grid[i], spec);
    block[i] = evaluated("block[" + std::to_string(i) + "]", rule.block[i], spec);
  }
  const long long smem = evaluated("dynamicSmemBytes", rule.dynamicSmemBytes, spec);

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
  out << ". Returns the launch's error (cudaSuccess when it was queued).\n"
      << "#include <cuda_runtime.h>\n"
      << "extern \"C\" cudaError_t " << hostLauncherName(rule) << "(";
  const auto params = hostLauncherParameters(spec, rule);
  for (std::size_t i = 0; i < params.size(); ++i) out << (i ? ", " : "") << params[i].type << " " << params[i].name;
  out << ") {\n"
      << "  const dim3 grid(" << grid[0] << ", " << grid[1] << ", " << grid[2] << ");\n"
      << "  const dim3 block(" << block[0] << ", " << block[1] << ", " << block[2] << ");\n"
      << "  const size_t smem = " << smem << ";\n";
  if (smem > kDefaultDynamicSmemLimit)
    out << "  const cudaError_t opt_in = cudaFuncSetAttribute(" << rule.entry
        << ", cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem));\n"
        << "  if (opt_in != cudaSuccess) return opt_in;\n";
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
