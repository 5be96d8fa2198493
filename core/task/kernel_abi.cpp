// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/task/kernel_abi.h"

#include <cctype>
#include <stdexcept>

namespace crucible {

std::vector<KernelParameter> kernelParameters(const TaskSpec& spec, KernelRole role,
                                              const std::vector<TensorMapRule>& tensorMaps) {
  std::vector<KernelParameter> params;
  for (const auto& t : spec.inputs) params.push_back({std::string("const ") + cudaTypeName(t.dtype) + "* __restrict__", t.name});
  for (const auto& t : spec.outputs)
    params.push_back({std::string(role == KernelRole::Oracle ? "double" : cudaTypeName(t.dtype)) + "* __restrict__", t.name});
  for (const auto& s : spec.scalars) params.push_back({"long long", s});
  for (const auto& m : tensorMaps) params.push_back({tensorMapParameterType(), tensorMapParameterName(m)});
  return params;
}

std::string kernelSignature(const TaskSpec& spec, KernelRole role, const std::string& entry,
                            const std::vector<TensorMapRule>& tensorMaps) {
  std::string sig = "extern \"C\" __global__ void " + entry + "(";
  const auto params = kernelParameters(spec, role, tensorMaps);
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

namespace {
bool isIdentifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Launch attributes are short (`__launch_bounds__(256, 2)`): looking further
// back for an attribute's '(' would make a hostile source cost quadratic time.
constexpr std::size_t kMaxAttributeLength = 1024;

// Where the launch attribute (`__name__(...)`) that ends just before `end` (at its
// closing parenthesis and a space) begins, or npos when no attribute ends there.
std::size_t attributeStart(const std::string& text, std::size_t end) {
  if (end < 2 || text[end - 1] != ' ' || text[end - 2] != ')') return std::string::npos;
  int depth = 0;
  std::size_t i = end - 2;
  const std::size_t lowest = end - 2 > kMaxAttributeLength ? end - 2 - kMaxAttributeLength : 0;
  for (;; --i) {
    if (text[i] == ')') ++depth;
    if (text[i] == '(' && --depth == 0) break;
    if (i == lowest) return std::string::npos;
  }
  std::size_t name = i;
  while (name > 0 && isIdentifierChar(text[name - 1])) --name;
  const std::string word = text.substr(name, i - name);
  const bool attribute = word.size() > 4 && word.rfind("__", 0) == 0 && word.compare(word.size() - 2, 2, "__") == 0;
  return attribute ? name : std::string::npos;
}
}  // namespace

bool sourceHasSignature(const std::string& source, const TaskSpec& spec, KernelRole role, const std::string& entry,
                        const std::vector<TensorMapRule>& tensorMaps) {
  const std::string text = normalized(source);
  const std::string signature = kernelSignature(spec, role, entry, tensorMaps);
  const std::string head = "extern \"C\" __global__ void ";
  const std::string named = signature.substr(head.size());  // "<entry>(<parameters>)"
  // Launch attributes (__launch_bounds__(...), __cluster_dims__(...)) may stand between `void` and the name.
  for (std::size_t at = text.find(named); at != std::string::npos; at = text.find(named, at + 1)) {
    std::size_t start = at;
    while (start >= head.size() && text.compare(start - head.size(), head.size(), head) != 0) {
      start = attributeStart(text, start);
      if (start == std::string::npos) break;
    }
    if (start != std::string::npos && start >= head.size() && text.compare(start - head.size(), head.size(), head) == 0)
      return true;
  }
  return false;
}

// ---------------------------------------------------------------- tensor maps

std::string tensorMapParameterType() { return "const __grid_constant__ CUtensorMap"; }

std::string tensorMapParameterName(const TensorMapRule& rule) { return "tmap_" + rule.tensor; }

std::string tensorMapTypeDeclaration() {
  // The driver's CUtensorMap is 16 quadwords; the hardware needs the kernel
  // parameter 64-byte aligned.
  return "struct alignas(64) CUtensorMap { unsigned long long opaque[16]; };";
}

TensorMatrix tensorMatrix(const TaskSpec& spec, const std::string& tensor) {
  const TensorSpec* found = nullptr;
  for (const auto* list : {&spec.inputs, &spec.outputs})
    for (const TensorSpec& t : *list)
      if (t.name == tensor) found = &t;
  if (!found) throw std::invalid_argument("'" + tensor + "' is not an input or output of task '" + spec.name + "'");
  const std::vector<std::int64_t> dims = resolveShape(spec, *found);
  TensorMatrix m;
  m.cols = dims.empty() ? 1 : dims.back();
  m.rows = 1;
  for (std::size_t i = 0; i + 1 < dims.size(); ++i) m.rows *= dims[i];
  m.elementBytes = sizeOf(found->dtype);
  return m;
}

int swizzleBytes(const std::string& swizzle) {
  if (swizzle == "none") return 0;
  if (swizzle == "32B") return 32;
  if (swizzle == "64B") return 64;
  if (swizzle == "128B") return 128;
  return -1;
}

namespace {

// Whether TMA has a data type for the dtype (CUtensorMapDataType): every dtype
// a task can have today; a new DType must be added here and in the worker.
bool tmaHasType(DType d) {
  switch (d) {
    case DType::F32:
    case DType::F16:
    case DType::BF16:
    case DType::F64:
    case DType::I32:
    case DType::I64:
      return true;
  }
  return false;
}

const TensorSpec* findTensor(const TaskSpec& spec, const std::string& name) {
  for (const auto* list : {&spec.inputs, &spec.outputs})
    for (const TensorSpec& t : *list)
      if (t.name == name) return &t;
  return nullptr;
}

// The limits cuTensorMapEncodeTiled documents (cuda.h) for a rank-2, non-interleaved map.
constexpr int kMaxBox = 256;
constexpr std::int64_t kStrideAlign = 16;
constexpr std::int64_t kMaxGlobalDim = std::int64_t{1} << 32;
constexpr std::int64_t kMaxStride = std::int64_t{1} << 40;

void checkRule(const TaskSpec& spec, const TensorMapRule& rule, const std::string& label,
               std::vector<std::string>& problems) {
  auto problem = [&](const std::string& what) { problems.push_back(label + ": " + what); };
  const int span = swizzleBytes(rule.swizzle);
  if (span < 0) problem("unknown swizzle '" + rule.swizzle + "' (none, 32B, 64B or 128B)");
  if (rule.boxRows < 1 || rule.boxRows > kMaxBox)
    problem("box rows " + std::to_string(rule.boxRows) + " outside 1.." + std::to_string(kMaxBox));
  if (rule.boxCols < 1 || rule.boxCols > kMaxBox)
    problem("box cols " + std::to_string(rule.boxCols) + " outside 1.." + std::to_string(kMaxBox));

  const TensorSpec* t = findTensor(spec, rule.tensor);
  if (!t) {
    problem("unknown tensor '" + rule.tensor + "' (not an input or output of task '" + spec.name + "')");
    return;
  }
  if (!tmaHasType(t->dtype)) {
    problem(std::string("TMA has no data type for ") + toString(t->dtype));
    return;
  }
  const TensorMatrix m = tensorMatrix(spec, rule.tensor);
  const auto elem = static_cast<std::int64_t>(m.elementBytes);
  const std::string dtype = toString(t->dtype);
  if (m.rows < 1 || m.cols < 1 || m.rows > kMaxGlobalDim || m.cols > kMaxGlobalDim)
    problem("the tensor's " + std::to_string(m.rows) + " x " + std::to_string(m.cols) +
            " matrix has a dimension outside 1..2^32");
  if (m.rowStrideBytes() % kStrideAlign != 0 || m.rowStrideBytes() >= kMaxStride)
    problem("row stride " + std::to_string(m.cols) + " x " + std::to_string(elem) + " B (" + dtype + ") = " +
            std::to_string(m.rowStrideBytes()) + " B is not a multiple of 16 bytes below 2^40");
  if (rule.boxCols >= 1 && rule.boxCols <= kMaxBox) {
    const std::int64_t boxBytes = rule.boxCols * elem;
    if (boxBytes % kStrideAlign != 0)
      problem("box cols " + std::to_string(rule.boxCols) + " x " + std::to_string(elem) + " B (" + dtype + ") = " +
              std::to_string(boxBytes) + " B is not a multiple of 16 bytes");
    if (span > 0 && boxBytes > span)
      problem("box cols " + std::to_string(rule.boxCols) + " x " + std::to_string(elem) + " B (" + dtype + ") = " +
              std::to_string(boxBytes) + " B exceed the " + rule.swizzle + " swizzle span");
  }
}

}  // namespace

std::vector<std::string> tensorMapProblems(const TaskSpec& spec, const std::vector<TensorMapRule>& tensorMaps,
                                           KernelRole role) {
  std::vector<std::string> problems;
  for (std::size_t i = 0; i < tensorMaps.size(); ++i) {
    const TensorMapRule& rule = tensorMaps[i];
    const std::string label = "tensorMaps[" + std::to_string(i) + "] (" + rule.tensor + ")";
    if (role == KernelRole::Oracle) {
      problems.push_back(label + ": the oracle takes no tensor maps (they are for candidates and baselines)");
      continue;
    }
    for (std::size_t j = 0; j < i; ++j)
      if (tensorMaps[j].tensor == rule.tensor)
        problems.push_back(label + ": a second map of the same tensor (tensorMaps[" + std::to_string(j) +
                           "]): both would be the parameter " + tensorMapParameterName(rule));
    // A tensor or scalar already named tmap_<tensor> would make two parameters of one name.
    for (const KernelParameter& p : kernelParameters(spec, role))
      if (p.name == tensorMapParameterName(rule))
        problems.push_back(label + ": its parameter " + p.name + " has the name of one of the task's parameters");
    checkRule(spec, rule, label, problems);
  }
  return problems;
}

}  // namespace crucible
