// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/task/kernel_abi.h"

#include <cctype>

namespace crucible {

std::vector<KernelParameter> kernelParameters(const TaskSpec& spec, KernelRole role) {
  std::vector<KernelParameter> params;
  for (const auto& t : spec.inputs) params.push_back({std::string("const ") + cudaTypeName(t.dtype) + "* __restrict__", t.name});
  for (const auto& t : spec.outputs)
    params.push_back({std::string(role == KernelRole::Oracle ? "double" : cudaTypeName(t.dtype)) + "* __restrict__", t.name});
  for (const auto& s : spec.scalars) params.push_back({"long long", s});
  return params;
}

std::string kernelSignature(const TaskSpec& spec, KernelRole role, const std::string& entry) {
  std::string sig = "extern \"C\" __global__ void " + entry + "(";
  const auto params = kernelParameters(spec, role);
  for (std::size_t i = 0; i < params.size(); ++i) sig += (i ? ", " : "") + params[i].type + " " + params[i].name;
  return sig + ")";
}

namespace {
// Collapses whitespace runs to one space and drops it next to '(' and before ')',
// so that line breaks and alignment inside a parameter list do not matter.
std::string normalized(const std::string& text) {
  std::string out;
  bool space = false;
  for (char c : text) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = true;
      continue;
    }
    if (space && !out.empty() && out.back() != '(' && c != ')') out += ' ';
    space = false;
    out += c;
  }
  return out;
}
}  // namespace

bool sourceHasSignature(const std::string& source, const TaskSpec& spec, KernelRole role, const std::string& entry) {
  return normalized(source).find(kernelSignature(spec, role, entry)) != std::string::npos;
}

}  // namespace crucible
