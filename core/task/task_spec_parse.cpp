// SPDX-License-Identifier: GPL-3.0-or-later
// parseTaskSpec: reads a task spec document (format 1, resources/tasks/README.md)
// and checks everything a kernel run depends on, so that a spec that parses
// can be drawn, launched and validated. Errors name the field by JSON path.
//
// The work is bounded for any text (a spec may come from a shared project
// file or a model): the document's size and nesting depth, every list's
// length, every name's and expression's length are capped, and no check
// recurses or backtracks over unbounded input.
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string_view>
#include "core/io/bounded_file.h"
#include "core/io/json_nesting.h"
#include "core/task/distribution_check.h"
#include "core/task/expression.h"
#include "core/task/identifier.h"
#include "core/task/json_fields.h"
#include "core/task/kernel_abi.h"
#include "core/task/launch_limits.h"
#include "core/task/launch_variables.h"
#include "core/task/task_spec.h"
#include "core/task/task_spec_operator.h"

namespace crucible {
namespace {

using namespace taskjson;

constexpr int kFormatVersion = 1;

// Far above what any operator needs (the built-in suite uses at most 3 of each
// and rank 2); they keep a hostile spec's checks cheap.
constexpr std::size_t kMaxTensorsPerList = 64;
constexpr std::size_t kMaxAxes = 64;
constexpr std::size_t kMaxRank = 8;
constexpr std::size_t kMaxTensorMaps = 64;
// Each stress case is one more oracle and candidate launch per evaluation.
constexpr std::size_t kMaxStressCases = 8;
constexpr std::size_t kMaxStressNameLength = 64;

// A C identifier of bounded length (the family, a tensor map's tensor).
std::string identifier(const json& j, const std::string& path) {
  std::string s = asString(j, path);
  if (const auto problem = identifierFormProblem(s)) throw TaskSpecError(path, *problem);
  return s;
}

// An identifier that becomes a name in kernel source (a parameter, a function):
// a keyword, a reserved name or a CUDA built-in would not compile, or worse, would.
std::string codeName(const std::string& s, const std::string& path) {
  if (const auto problem = identifierFormProblem(s)) throw TaskSpecError(path, *problem);
  if (const auto problem = reservedNameProblem(s)) throw TaskSpecError(path, *problem);
  return s;
}

std::string codeName(const json& j, const std::string& path) { return codeName(asString(j, path), path); }

// The task's name: [A-Za-z0-9][A-Za-z0-9_.-]*, bounded (it names files and rows).
void checkTaskName(const std::string& name) {
  if (name.size() > kMaxIdentifierLength)
    throw TaskSpecError("name", "a name of " + std::to_string(name.size()) + " characters is longer than the limit of " +
                                    std::to_string(kMaxIdentifierLength));
  const auto alnum = [](char c) { return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); };
  const bool ok = !name.empty() && alnum(name[0]) &&
                  std::all_of(name.begin(), name.end(), [&](char c) { return alnum(c) || c == '_' || c == '.' || c == '-'; });
  if (!ok) throw TaskSpecError("name", "'" + name + "' may use only letters, digits, '_', '.' and '-'");
}

// Whether `source` has `name` as a whole word followed by '(' (spaces allowed
// between): a cheap guard that the launch rule names a function the source has.
bool mentionsCall(const std::string& source, const std::string& name) {
  const auto identifierChar = [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
  };
  const std::boyer_moore_horspool_searcher searcher(name.begin(), name.end());
  for (auto from = source.begin();;) {
    const auto at = std::search(from, source.end(), searcher);
    if (at == source.end()) return false;
    auto after = at + static_cast<std::ptrdiff_t>(name.size());
    from = at + 1;
    if (at != source.begin() && identifierChar(*(at - 1))) continue;
    while (after != source.end() && (*after == ' ' || *after == '\t' || *after == '\r' || *after == '\n')) ++after;
    if (after != source.end() && *after == '(') return true;
  }
}

// Evaluates an expression read from the field at `path`; the error names that field.
std::int64_t evaluateAt(const std::string& expr, const std::map<std::string, std::int64_t>& axes,
                        const std::string& path) {
  try {
    return evaluateAxisExpression(expr, axes);
  } catch (const ExpressionError& e) {
    throw TaskSpecError(path, e.what());
  }
}

int parseFormat(const Fields& root) {
  const std::int64_t v = asInteger(root.required("format"), "format");
  if (v > kFormatVersion)
    throw TaskSpecError("format", "version " + std::to_string(v) + " is newer than this Crucible reads (" +
                                      std::to_string(kFormatVersion) + ")");
  if (v != kFormatVersion) throw TaskSpecError("format", "unknown version " + std::to_string(v));
  return int(v);
}

// "sanitizeAxes": {"M": 256}: each an axis of the task, at most its value.
std::map<std::string, std::int64_t> parseSanitizeAxes(const Fields& root, const std::map<std::string, std::int64_t>& axes) {
  std::map<std::string, std::int64_t> reduced;
  const json* j = root.optional("sanitizeAxes");
  if (!j) return reduced;
  if (!j->is_object()) throw TaskSpecError("sanitizeAxes", "must be an object of axis name -> positive integer");
  for (auto it = j->begin(); it != j->end(); ++it) {
    const std::string path = child("sanitizeAxes", it.key());
    const auto axis = axes.find(it.key());
    if (axis == axes.end()) throw TaskSpecError(path, "names no axis of the task");
    if (!it->is_number_integer() || asInteger(*it, path) <= 0) throw TaskSpecError(path, "must be a positive integer");
    const std::int64_t v = it->get<std::int64_t>();
    if (v > axis->second)
      throw TaskSpecError(path, std::to_string(v) + " is larger than the axis (" + std::to_string(axis->second) + ")");
    reduced[it.key()] = v;
  }
  return reduced;
}

std::map<std::string, std::int64_t> parseAxes(const Fields& root) {
  const json& j = root.required("axes");
  if (!j.is_object()) throw TaskSpecError("axes", "must be an object of name -> positive integer");
  if (j.size() > kMaxAxes)
    throw TaskSpecError("axes", "names " + std::to_string(j.size()) + " axes, more than the limit of " + std::to_string(kMaxAxes));
  std::map<std::string, std::int64_t> axes;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string path = child("axes", it.key());
    codeName(it.key(), path);  // axes can be scalars: kernel parameters
    if (isExpressionFunction(it.key())) throw TaskSpecError(path, "'" + it.key() + "' is an expression function");
    if (it.key() == kSmCountName)
      throw TaskSpecError(path, "'" + it.key() + "' is the GPU's SM count in launch rules, not a name an axis can take");
    if (!it->is_number_integer() || asInteger(*it, path) <= 0) throw TaskSpecError(path, "must be a positive integer");
    axes[it.key()] = it->get<std::int64_t>();
  }
  return axes;
}

// randint bounds may be an expression over the axes ("V"); the others are numbers.
double distributionBound(const json& j, const std::string& path, bool integer,
                         const std::map<std::string, std::int64_t>& axes) {
  if (!integer) return asFiniteNumber(j, path);
  if (j.is_string()) return double(evaluateAt(j.get<std::string>(), axes, path));
  if (j.is_number_float()) {
    const double v = asFiniteNumber(j, path);
    if (v != std::floor(v)) throw TaskSpecError(path, "must be an integer for randint");
    return v;
  }
  return double(asInteger(j, path));
}

Distribution parseDistribution(const json& j, const std::string& path, DType dtype,
                               const std::map<std::string, std::int64_t>& axes) {
  const Fields f(j, path);
  Distribution d;
  d.kind = asString(f.required("kind"), f.path("kind"));
  if (d.kind == "normal") {
    f.rejectUnknown({"kind", "mean", "stddev"});
    d.a = asFiniteNumber(f.required("mean"), f.path("mean"));
    d.b = asFiniteNumber(f.required("stddev"), f.path("stddev"));
    if (d.b <= 0) throw TaskSpecError(f.path("stddev"), "must be > 0 (a zero spread draws a constant, which cannot tell a kernel from a wrong one)");
  } else if (d.kind == "uniform" || d.kind == "randint") {
    const bool integer = d.kind == "randint";
    f.rejectUnknown({"kind", "low", "high"});
    d.a = distributionBound(f.required("low"), f.path("low"), integer, axes);
    d.b = distributionBound(f.required("high"), f.path("high"), integer, axes);
    if (!(d.a < d.b)) throw TaskSpecError(f.path("high"), "must be greater than low");
    if (integer && d.a == 0 && d.b == 1) throw TaskSpecError(path, "randint [0, 1) draws only zeros");
  } else {
    throw TaskSpecError(f.path("kind"), "unknown distribution " + quotedValue(d.kind) + " (normal, uniform or randint)");
  }
  if (!isFloating(dtype) && d.kind != "randint")
    throw TaskSpecError(f.path("kind"), std::string("'") + d.kind + "' cannot draw " + toString(dtype) + " values; use randint");
  if (dtype == DType::I32 && (d.a < -2147483648.0 || d.b > 2147483648.0))
    throw TaskSpecError(path, "randint range does not fit in i32");
  if (const auto problem = distributionProblem(d, dtype))
    throw TaskSpecError(problem->field.empty() ? path : f.path(problem->field), problem->message);
  return d;
}

TensorSpec parseTensor(const json& j, const std::string& path, bool input,
                       const std::map<std::string, std::int64_t>& axes) {
  const Fields f(j, path);
  if (input) f.rejectUnknown({"name", "dtype", "shape", "distribution"});
  else f.rejectUnknown({"name", "dtype", "shape"});
  TensorSpec t;
  t.name = codeName(f.required("name"), f.path("name"));
  const std::string dtype = asString(f.required("dtype"), f.path("dtype"));
  const auto d = dtypeFromString(dtype);
  if (!d) throw TaskSpecError(f.path("dtype"), "unknown dtype " + quotedValue(dtype) + " (f32, f16, bf16, f64, i32, i64)");
  t.dtype = *d;
  const json& shape = asArray(f.required("shape"), f.path("shape"), kMaxRank);
  if (shape.empty()) throw TaskSpecError(f.path("shape"), "must list at least one dimension");
  std::int64_t elements = 1;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    const std::string dimPath = index(f.path("shape"), i);
    t.shape.push_back(asExpressionText(shape[i], dimPath));
    const std::int64_t extent = evaluateAt(t.shape.back(), axes, dimPath);
    if (extent <= 0) throw TaskSpecError(dimPath, "evaluates to " + std::to_string(extent) + ", must be positive");
    if (__builtin_mul_overflow(elements, extent, &elements) ||
        __builtin_mul_overflow(elements, std::int64_t(sizeOf(t.dtype)), &elements))
      throw TaskSpecError(f.path("shape"), "tensor size overflows 64 bits");
    elements /= std::int64_t(sizeOf(t.dtype));
  }
  if (input) t.distribution = parseDistribution(f.required("distribution"), f.path("distribution"), t.dtype, axes);
  return t;
}

std::vector<TensorSpec> parseTensors(const Fields& root, const char* key, bool input,
                                     const std::map<std::string, std::int64_t>& axes) {
  const json& list = asArray(root.required(key), key, kMaxTensorsPerList);
  if (list.empty()) throw TaskSpecError(key, std::string("must list at least one ") + (input ? "input" : "output"));
  std::vector<TensorSpec> out;
  for (std::size_t i = 0; i < list.size(); ++i) out.push_back(parseTensor(list[i], index(key, i), input, axes));
  return out;
}

std::vector<std::string> parseScalars(const Fields& root, const std::map<std::string, std::int64_t>& axes) {
  const json& list = asArray(root.required("scalars"), "scalars", kMaxAxes);
  std::vector<std::string> scalars;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string path = index("scalars", i);
    const std::string name = asString(list[i], path);
    if (!axes.count(name)) throw TaskSpecError(path, quotedValue(name) + " is not an axis (scalars pass axes to the kernel)");
    for (const auto& s : scalars)
      if (s == name) throw TaskSpecError(path, "'" + name + "' is listed twice");
    scalars.push_back(name);
  }
  return scalars;
}

// Kernel parameters are named after tensors and scalars: the names must be unique.
void checkUniqueNames(const TaskSpec& spec) {
  std::map<std::string, std::string> owner;  // name -> field path that introduced it
  for (std::size_t i = 0; i < spec.scalars.size(); ++i) owner[spec.scalars[i]] = index("scalars", i);
  auto claim = [&](const std::vector<TensorSpec>& list, const char* key) {
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string path = index(key, i) + ".name";
      auto [it, fresh] = owner.emplace(list[i].name, path);
      if (!fresh) throw TaskSpecError(path, "'" + list[i].name + "' is already used by " + it->second);
    }
  };
  claim(spec.inputs, "inputs");
  claim(spec.outputs, "outputs");
}

// {"rtol": 1e-4, "atol": 1e-6}
Tolerance parseTolerance(const json& j, const std::string& path) {
  const Fields f(j, path);
  f.rejectUnknown({"rtol", "atol"});
  Tolerance t;
  t.rtol = asFiniteNumber(f.required("rtol"), f.path("rtol"));
  t.atol = asFiniteNumber(f.required("atol"), f.path("atol"));
  if (t.rtol < 0) throw TaskSpecError(f.path("rtol"), "must be >= 0");
  if (t.atol < 0) throw TaskSpecError(f.path("atol"), "must be >= 0");
  return t;
}

std::map<std::string, Tolerance> parseTolerances(const Fields& root, const std::vector<TensorSpec>& outputs) {
  const json& j = root.required("tolerances");
  if (!j.is_object()) throw TaskSpecError("tolerances", "must be an object of output name -> {rtol, atol}");
  std::map<std::string, Tolerance> tolerances;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string path = child("tolerances", it.key());
    bool isOutput = false;
    for (const auto& o : outputs) isOutput = isOutput || o.name == it.key();
    if (!isOutput) throw TaskSpecError(path, "no output named " + quotedValue(it.key()));
    tolerances[it.key()] = parseTolerance(*it, path);
  }
  for (const auto& o : outputs)
    if (!tolerances.count(o.name))
      throw TaskSpecError(child("tolerances", o.name), "missing (every output needs a tolerance)");
  return tolerances;
}

// "stress": [{"name": "large logits", "inputs": {"x": {distribution}}, "tolerances": {"y": {...}}}]
// Every case names at least one input; names are unique, printable and short
// (they appear in a failure's reason).
std::vector<StressCase> parseStress(const Fields& root, const TaskSpec& spec) {
  std::vector<StressCase> cases;
  const json* j = root.optional("stress");
  if (!j) return cases;
  const json& list = asArray(*j, "stress", kMaxStressCases);
  for (std::size_t i = 0; i < list.size(); ++i) {
    const Fields f(list[i], index("stress", i));
    f.rejectUnknown({"name", "inputs", "tolerances"});
    StressCase c;
    c.name = asNonEmptyString(f.required("name"), f.path("name"));
    asPrintableText(f.required("name"), f.path("name"));
    if (c.name.size() > kMaxStressNameLength || c.name.find_first_of("\t\r\n") != std::string::npos)
      throw TaskSpecError(f.path("name"), "must be one line of at most " + std::to_string(kMaxStressNameLength) +
                                              " characters");
    for (const auto& earlier : cases)
      if (earlier.name == c.name) throw TaskSpecError(f.path("name"), quotedValue(c.name) + " names an earlier case too");
    const json& inputs = f.required("inputs");
    if (!inputs.is_object() || inputs.empty())
      throw TaskSpecError(f.path("inputs"), "must be an object of input name -> distribution, naming at least one input");
    for (auto it = inputs.begin(); it != inputs.end(); ++it) {
      const std::string path = child(f.path("inputs"), it.key());
      const auto input = std::find_if(spec.inputs.begin(), spec.inputs.end(),
                                      [&](const TensorSpec& t) { return t.name == it.key(); });
      if (input == spec.inputs.end()) throw TaskSpecError(path, "no input named " + quotedValue(it.key()));
      c.inputs[it.key()] = parseDistribution(*it, path, input->dtype, spec.axes);
    }
    if (const json* tolerances = f.optional("tolerances")) {
      if (!tolerances->is_object())
        throw TaskSpecError(f.path("tolerances"), "must be an object of output name -> {rtol, atol}");
      for (auto it = tolerances->begin(); it != tolerances->end(); ++it) {
        const std::string path = child(f.path("tolerances"), it.key());
        if (!spec.tolerances.count(it.key())) throw TaskSpecError(path, "no output named " + quotedValue(it.key()));
        c.tolerances[it.key()] = parseTolerance(*it, path);
      }
    }
    cases.push_back(std::move(c));
  }
  return cases;
}

// Reads 1 to 3 dimension expressions; missing ones are "1".
void readDims(const Fields& launch, const char* key, std::string (&dims)[3]) {
  const std::string path = launch.path(key);
  const json& list = asArray(launch.required(key), path);
  if (list.empty() || list.size() > 3) throw TaskSpecError(path, "must list 1 to 3 expressions (x, y, z)");
  for (std::size_t i = 0; i < 3; ++i) dims[i] = i < list.size() ? asExpressionText(list[i], index(path, i)) : "1";
}

// launch.tensorMaps: [{"tensor": "A", "boxRows": 128, "boxCols": 64, "swizzle": "128B"}, ...]
// (LaunchRule::tensorMaps). Whether the task's tensors can take them is checked once the
// tensors are known (checkTensorMaps).
std::vector<TensorMapRule> parseTensorMaps(const json& j, const std::string& path) {
  std::vector<TensorMapRule> out;
  const json& list = asArray(j, path, kMaxTensorMaps);
  for (std::size_t i = 0; i < list.size(); ++i) {
    const Fields f(list[i], path + "[" + std::to_string(i) + "]");
    f.rejectUnknown({"tensor", "boxRows", "boxCols", "swizzle"});
    TensorMapRule m;
    m.tensor = identifier(f.required("tensor"), f.path("tensor"));
    // Checked at the width of the field that holds them (2^32 + 8 must not
    // become 8); checkTensorMaps then judges them against TMA's 1..256.
    m.boxRows = static_cast<int>(asIntegerIn(f.required("boxRows"), f.path("boxRows"), INT_MIN, INT_MAX));
    m.boxCols = static_cast<int>(asIntegerIn(f.required("boxCols"), f.path("boxCols"), INT_MIN, INT_MAX));
    if (const json* swizzle = f.optional("swizzle")) {
      m.swizzle = asString(*swizzle, f.path("swizzle"));
      if (swizzleBytes(m.swizzle) < 0)
        throw TaskSpecError(f.path("swizzle"), "unknown swizzle " + quotedValue(m.swizzle) + " (none, 32B, 64B or 128B)");
    }
    out.push_back(m);
  }
  return out;
}

// The baseline's tensor maps must fit the task's tensors; the oracle takes none.
void checkTensorMaps(const TaskSpec& spec) {
  if (const auto problems = tensorMapProblems(spec, spec.baseline.launch.tensorMaps); !problems.empty())
    throw TaskSpecError("baseline.launch.tensorMaps", problems.front());
  if (!spec.oracle.launch.tensorMaps.empty())
    throw TaskSpecError("oracle.launch.tensorMaps", "the oracle takes no tensor maps (it is plain, obviously correct code)");
}

SpecKernel parseKernel(const Fields& root, const char* key, const std::map<std::string, std::int64_t>& axes) {
  const Fields f(root.required(key), key);
  f.rejectUnknown({"source", "launch"});
  SpecKernel k;
  k.source = asSourceText(f.required("source"), f.path("source"));
  if (k.source.size() > kMaxKernelSourceBytes)
    throw TaskSpecError(f.path("source"), std::to_string(k.source.size()) + " bytes of source, above the limit of " +
                                              std::to_string(kMaxKernelSourceBytes >> 20) + " MiB");
  if (k.source.find_first_not_of(" \t\r\n") == std::string::npos) throw TaskSpecError(f.path("source"), "must not be empty");
  const Fields launch(f.required("launch"), f.path("launch"));
  launch.rejectUnknown({"entry", "grid", "block", "dynamicSmemBytes", "tensorMaps"});
  k.launch.entry = codeName(launch.required("entry"), launch.path("entry"));
  readDims(launch, "grid", k.launch.grid);
  readDims(launch, "block", k.launch.block);
  if (const json* smem = launch.optional("dynamicSmemBytes"))
    k.launch.dynamicSmemBytes = asExpressionText(*smem, launch.path("dynamicSmemBytes"));
  // No GPU is known while a task is read: a rule that uses sm_count is checked at each SM count
  // it could meet (launch_variables.h); the worker checks it again with its GPU's.
  for (const std::int64_t smCount : smCountsCheckedWithoutGpu(k.launch))
    if (const auto problem = launchLimitProblem(k.launch, launchNames(axes, smCount), smCountNote(smCount)))
      throw TaskSpecError(launch.path(problem->field), problem->message);
  if (const json* maps = launch.optional("tensorMaps")) k.launch.tensorMaps = parseTensorMaps(*maps, launch.path("tensorMaps"));
  // A cheap guard against a launch rule that names a kernel the source lacks.
  if (!mentionsCall(k.source, k.launch.entry))
    throw TaskSpecError(f.path("source"), "defines no function '" + k.launch.entry + "' (" + launch.path("entry") + ")");
  return k;
}

std::string parseCountExpression(const Fields& root, const char* key, std::int64_t minimum,
                                 const std::map<std::string, std::int64_t>& axes) {
  const std::string text = asExpressionText(root.required(key), key);
  const std::int64_t v = evaluateAt(text, axes, key);
  if (v < minimum) throw TaskSpecError(key, "evaluates to " + std::to_string(v) + ", must be >= " + std::to_string(minimum));
  return text;
}

json parseDocument(const std::string& text) {
  if (text.size() > kMaxTaskSpecFileBytes)
    throw TaskSpecError("document", std::to_string(text.size()) + " bytes, above the limit of " +
                                        std::to_string(kMaxTaskSpecFileBytes >> 20) + " MiB for a task spec");
  if (const std::size_t at = findJsonNestingBeyond(text); at != std::string_view::npos)
    throw TaskSpecError("document", "nests deeper than " + std::to_string(kMaxJsonNesting) + " levels (at byte " +
                                        std::to_string(at) + ")");
  // nlohmann's messages start with "[json.exception.<kind>.<id>] ": not for the user.
  const auto plain = [](const json::exception& e) {
    const std::string what = e.what();
    const std::size_t end = what.rfind("] ", what.find(' '));
    return what.rfind("[json.exception.", 0) == 0 && end != std::string::npos ? what.substr(end + 2) : what;
  };
  try {
    return json::parse(text);
  } catch (const json::out_of_range& e) {
    // A number beyond double ("format": 1e999) is refused by the parser itself.
    throw TaskSpecError("document", "a number is out of range (" + plain(e) + ")");
  } catch (const json::exception& e) {
    throw TaskSpecError("document", "not valid JSON: " + plain(e));
  }
}

TaskSpec parseFields(const json& doc) {
  const Fields root(doc, "");
  root.rejectUnknown({"format", "name", "family", "description", "axes", "inputs", "outputs", "scalars", "tolerances",
                      "flops", "minBytes", "entry", "baseline", "oracle", "libraryReference", "sanitizeAxes",
                      "operator", "stress"});
  TaskSpec spec;
  spec.formatVersion = parseFormat(root);
  spec.name = asNonEmptyString(root.required("name"), "name");
  checkTaskName(spec.name);
  spec.family = identifier(root.required("family"), "family");
  if (const json* d = root.optional("description")) spec.description = asPrintableText(*d, "description");
  spec.axes = parseAxes(root);
  spec.sanitizeAxes = parseSanitizeAxes(root, spec.axes);
  spec.inputs = parseTensors(root, "inputs", true, spec.axes);
  spec.outputs = parseTensors(root, "outputs", false, spec.axes);
  spec.scalars = parseScalars(root, spec.axes);
  checkUniqueNames(spec);
  spec.tolerances = parseTolerances(root, spec.outputs);
  spec.flops = parseCountExpression(root, "flops", 0, spec.axes);
  spec.minBytes = parseCountExpression(root, "minBytes", 1, spec.axes);
  spec.entry = codeName(root.required("entry"), "entry");
  spec.baseline = parseKernel(root, "baseline", spec.axes);
  spec.oracle = parseKernel(root, "oracle", spec.axes);
  checkTensorMaps(spec);
  if (const json* op = root.optional("operator")) spec.operation = parseOperatorField(*op, spec);
  spec.stress = parseStress(root, spec);
  if (const json* lib = root.optional("libraryReference")) {
    spec.libraryReference = asString(*lib, "libraryReference");
    const auto& known = knownLibraryReferences();
    if (std::find(known.begin(), known.end(), spec.libraryReference) == known.end())
      throw TaskSpecError("libraryReference", "unknown library reference " + quotedValue(spec.libraryReference));
  }
  return spec;
}

}  // namespace

TaskSpec parseTaskSpec(const std::string& text) {
  const json doc = parseDocument(text);
  try {
    return parseFields(doc);
  } catch (const json::exception& e) {
    // The fields are type-checked before they are read; this is a backstop
    // so that a missed case is still a message naming the document.
    throw TaskSpecError("document", e.what());
  }
}

}  // namespace crucible
