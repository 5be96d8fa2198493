// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/model_json.h"

#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

namespace crucible {
using nlohmann::json;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

template <typename T>
struct IsVector : std::false_type {};
template <typename E>
struct IsVector<std::vector<E>> : std::true_type {};

[[noreturn]] void fail(const std::string& where, const std::string& expected) {
  throw ModelJsonError(where + ": expected " + expected);
}

// Reads v as a T, checking its JSON type first (nlohmann's get<> would turn
// 3.7 into the int 3 and true into 1). where() names the value in an error;
// it is a callable so the name is only built when something is wrong.
template <typename T, typename Where>
T read(const json& v, const Where& where) {
  if constexpr (std::is_same_v<T, bool>) {
    if (!v.is_boolean()) fail(where(), "a boolean");
    return v.get<bool>();
  } else if constexpr (std::is_integral_v<T>) {
    if (v.is_number_unsigned()) {
      if (const auto u = v.get<std::uint64_t>(); std::in_range<T>(u)) return static_cast<T>(u);
    } else if (v.is_number_integer()) {
      if (const auto i = v.get<std::int64_t>(); std::in_range<T>(i)) return static_cast<T>(i);
    }
    fail(where(), "an integer from " + std::to_string(std::numeric_limits<T>::min()) + " to " +
                      std::to_string(std::numeric_limits<T>::max()));
  } else if constexpr (std::is_same_v<T, double>) {
    if (v.is_null()) return kNaN;  // how NaN and infinities were written
    if (!v.is_number()) fail(where(), "a number");
    return v.get<double>();
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (!v.is_string()) fail(where(), "a string");
    return v.get<std::string>();
  } else if constexpr (IsVector<T>::value) {
    if (!v.is_array()) fail(where(), "an array");
    T out;
    out.reserve(v.size());
    for (std::size_t i = 0; i < v.size(); ++i)
      out.push_back(read<typename T::value_type>(v[i], [&] { return where() + "[" + std::to_string(i) + "]"; }));
    return out;
  } else {
    static_assert(std::is_same_v<typename T::key_type, std::string>, "read<T>: unsupported type");
    if (!v.is_object()) fail(where(), "an object");
    T out;
    // Not a structured binding: clang 14 (the fuzz build) cannot capture one in a lambda.
    for (auto it = v.begin(); it != v.end(); ++it) {
      const std::string& name = it.key();
      out.emplace(name, read<typename T::mapped_type>(*it, [&] { return where() + "['" + name + "']"; }));
    }
    return out;
  }
}

template <typename T>
T field(const json& j, const char* key, const std::string& what) {
  return read<T>(requiredMember(j, key, what), [&] { return what + ": field '" + key + "'"; });
}

double figure(const json& j, const char* key, const std::string& what, MissingFigures missing) {
  if (missing == MissingFigures::ReadAsNaN && j.is_object() && !j.contains(key)) return kNaN;
  return field<double>(j, key, what);
}

const json& arrayField(const json& j, const char* key, const std::string& what) {
  const json& a = requiredMember(j, key, what);
  if (!a.is_array()) fail(what + ": field '" + key + "'", "an array");
  return a;
}

std::string indexed(const std::string& what, std::size_t i) { return what + "[" + std::to_string(i) + "]"; }

CompileDiagnostic diagnosticFrom(const json& j, const std::string& what) {
  return {field<int>(j, "line", what), field<int>(j, "column", what), field<std::string>(j, "severity", what),
          field<std::string>(j, "message", what)};
}

ValidationTrial trialFrom(const json& j, MissingFigures missing, const std::string& what) {
  ValidationTrial t;
  t.seed = field<std::uint64_t>(j, "seed", what);
  t.passed = field<bool>(j, "passed", what);
  t.reason = field<std::string>(j, "reason", what);
  t.maxAbsError = figure(j, "maxAbsError", what, missing);
  t.maxRelError = figure(j, "maxRelError", what, missing);
  t.mismatches = field<std::int64_t>(j, "mismatches", what);
  return t;
}

}  // namespace

const json& requiredMember(const json& j, const char* key, const std::string& what) {
  if (!j.is_object()) throw ModelJsonError(what + ": expected an object");
  const auto it = j.find(key);
  if (it == j.end()) throw ModelJsonError(what + ": missing field '" + key + "'");
  return *it;
}

template <typename T>
T requiredField(const json& j, const char* key, const std::string& what) {
  return field<T>(j, key, what);
}
template bool requiredField<bool>(const json&, const char*, const std::string&);
template int requiredField<int>(const json&, const char*, const std::string&);
template std::int64_t requiredField<std::int64_t>(const json&, const char*, const std::string&);
template std::uint64_t requiredField<std::uint64_t>(const json&, const char*, const std::string&);
template double requiredField<double>(const json&, const char*, const std::string&);
template std::string requiredField<std::string>(const json&, const char*, const std::string&);
template std::vector<std::uint64_t> requiredField<std::vector<std::uint64_t>>(const json&, const char*,
                                                                              const std::string&);

// ---------------------------------------------------------------- LaunchRule

json toJson(const TensorMapRule& m) {
  return {{"tensor", m.tensor}, {"boxRows", m.boxRows}, {"boxCols", m.boxCols}, {"swizzle", m.swizzle}};
}

TensorMapRule tensorMapRuleFromJson(const json& j, const std::string& what) {
  TensorMapRule m;
  m.tensor = field<std::string>(j, "tensor", what);
  m.boxRows = field<int>(j, "boxRows", what);
  m.boxCols = field<int>(j, "boxCols", what);
  if (j.contains("swizzle")) m.swizzle = field<std::string>(j, "swizzle", what);  // absent: "none"
  return m;
}

json toJson(const LaunchRule& l) {
  json j = {{"entry", l.entry},
            {"grid", json::array({l.grid[0], l.grid[1], l.grid[2]})},
            {"block", json::array({l.block[0], l.block[1], l.block[2]})},
            {"dynamicSmemBytes", l.dynamicSmemBytes}};
  // Written only when there are some: a rule without maps keeps the form it
  // had before tensor maps existed, byte for byte.
  if (!l.tensorMaps.empty()) {
    json maps = json::array();
    for (const TensorMapRule& m : l.tensorMaps) maps.push_back(toJson(m));
    j["tensorMaps"] = std::move(maps);
  }
  return j;
}

LaunchRule launchRuleFromJson(const json& j) {
  const std::string what = "LaunchRule";
  LaunchRule l;
  l.entry = field<std::string>(j, "entry", what);
  const auto grid = field<std::vector<std::string>>(j, "grid", what);
  if (grid.size() != 3) fail(what + ": field 'grid'", "an array of 3 expressions");
  const auto block = field<std::vector<std::string>>(j, "block", what);
  if (block.size() != 3) fail(what + ": field 'block'", "an array of 3 expressions");
  for (int i = 0; i < 3; ++i) {
    l.grid[i] = grid[i];
    l.block[i] = block[i];
  }
  l.dynamicSmemBytes = field<std::string>(j, "dynamicSmemBytes", what);
  // Absent in projects and exported kernels older than tensor maps: none.
  if (j.contains("tensorMaps")) {
    const json& maps = arrayField(j, "tensorMaps", what);
    for (std::size_t i = 0; i < maps.size(); ++i)
      l.tensorMaps.push_back(tensorMapRuleFromJson(maps[i], indexed(what + ".tensorMaps", i)));
  }
  return l;
}

// ---------------------------------------------------------------- CompileReport

json toJson(const CompileDiagnostic& d) {
  return {{"line", d.line}, {"column", d.column}, {"severity", d.severity}, {"message", d.message}};
}

CompileDiagnostic compileDiagnosticFromJson(const json& j) { return diagnosticFrom(j, "CompileDiagnostic"); }

json toJson(const CompileReport& r) {
  json diagnostics = json::array();
  for (const auto& d : r.diagnostics) diagnostics.push_back(toJson(d));
  return {{"ok", r.ok},
          {"arch", r.arch},
          {"diagnostics", diagnostics},
          {"log", r.log},
          {"registers", r.registers},
          {"staticSmemBytes", r.staticSmemBytes},
          {"localBytes", r.localBytes},
          {"spillStoreBytes", r.spillStoreBytes},
          {"spillLoadBytes", r.spillLoadBytes},
          {"maxThreadsPerBlock", r.maxThreadsPerBlock},
          {"features", r.features},
          {"seconds", r.seconds}};
}

CompileReport compileReportFromJson(const json& j, MissingFigures missing) {
  const std::string what = "CompileReport";
  CompileReport r;
  r.ok = field<bool>(j, "ok", what);
  r.arch = field<std::string>(j, "arch", what);
  const json& diagnostics = arrayField(j, "diagnostics", what);
  for (std::size_t i = 0; i < diagnostics.size(); ++i)
    r.diagnostics.push_back(diagnosticFrom(diagnostics[i], indexed(what + ".diagnostics", i)));
  r.log = field<std::string>(j, "log", what);
  r.registers = field<int>(j, "registers", what);
  r.staticSmemBytes = field<int>(j, "staticSmemBytes", what);
  r.localBytes = field<int>(j, "localBytes", what);
  r.spillStoreBytes = field<int>(j, "spillStoreBytes", what);
  r.spillLoadBytes = field<int>(j, "spillLoadBytes", what);
  r.maxThreadsPerBlock = field<int>(j, "maxThreadsPerBlock", what);
  r.features = field<std::map<std::string, int>>(j, "features", what);
  r.seconds = figure(j, "seconds", what, missing);
  return r;
}

// ---------------------------------------------------------------- ValidationTrial

json toJson(const ValidationTrial& t) {
  return {{"seed", t.seed},
          {"passed", t.passed},
          {"reason", t.reason},
          {"maxAbsError", t.maxAbsError},
          {"maxRelError", t.maxRelError},
          {"mismatches", t.mismatches}};
}

json toJson(const std::vector<ValidationTrial>& trials) {
  json a = json::array();
  for (const auto& t : trials) a.push_back(toJson(t));
  return a;
}

ValidationTrial validationTrialFromJson(const json& j, MissingFigures missing) {
  return trialFrom(j, missing, "ValidationTrial");
}

std::vector<ValidationTrial> validationTrialsFromJson(const json& j, MissingFigures missing) {
  if (!j.is_array()) fail("ValidationTrial list", "an array");
  std::vector<ValidationTrial> trials;
  trials.reserve(j.size());
  for (std::size_t i = 0; i < j.size(); ++i) trials.push_back(trialFrom(j[i], missing, indexed("ValidationTrial", i)));
  return trials;
}

// ---------------------------------------------------------------- Timing

json toJson(const Timing& t) {
  return {{"samplesUs", t.samplesUs},
          {"medianUs", t.medianUs},
          {"iqrUs", t.iqrUs},
          {"referenceMedianUs", t.referenceMedianUs},
          {"referenceIqrUs", t.referenceIqrUs},
          {"speedup", t.speedup},
          {"smClockMHz", t.smClockMHz},
          {"device", toJson(t.device)}};
}

Timing timingFromJson(const json& j, MissingFigures missing) {
  const std::string what = "Timing";
  Timing t;
  t.samplesUs = field<std::vector<double>>(j, "samplesUs", what);
  t.medianUs = figure(j, "medianUs", what, missing);
  t.iqrUs = figure(j, "iqrUs", what, missing);
  t.referenceMedianUs = figure(j, "referenceMedianUs", what, missing);
  t.referenceIqrUs = figure(j, "referenceIqrUs", what, missing);
  t.speedup = figure(j, "speedup", what, missing);
  t.smClockMHz = figure(j, "smClockMHz", what, missing);
  // Older project rows have no device: not recorded. The worker protocol
  // always sends one (both ends are built together).
  if (missing == MissingFigures::Reject || j.contains("device"))
    t.device = fingerprintFromJson(requiredMember(j, "device", what));
  return t;
}

// ---------------------------------------------------------------- Fingerprint, Ceiling, Task

json toJson(const Fingerprint& f) {
  return {{"gpu", f.gpu},
          {"arch", f.arch},
          {"driver", f.driver},
          {"cudaRuntime", f.cudaRuntime},
          {"nvrtc", f.nvrtc},
          {"smClockMHz", f.smClockMHz},
          {"memClockMHz", f.memClockMHz},
          {"host", f.host},
          {"smCount", f.smCount}};
}

Fingerprint fingerprintFromJson(const json& j) {
  const std::string what = "Fingerprint";
  Fingerprint f;
  f.gpu = field<std::string>(j, "gpu", what);
  f.arch = field<std::string>(j, "arch", what);
  f.driver = field<std::string>(j, "driver", what);
  f.cudaRuntime = field<std::string>(j, "cudaRuntime", what);
  f.nvrtc = field<std::string>(j, "nvrtc", what);
  f.smClockMHz = field<double>(j, "smClockMHz", what);
  f.memClockMHz = field<double>(j, "memClockMHz", what);
  f.host = field<std::string>(j, "host", what);
  // Absent in fingerprints written before it was kept: not recorded.
  if (j.contains("smCount")) f.smCount = field<int>(j, "smCount", what);
  return f;
}

json toJson(const Ceiling& c) {
  return {{"device", c.device}, {"name", c.name}, {"measured", c.measured},
          {"datasheet", c.datasheet}, {"unit", c.unit}, {"measuredAt", c.measuredAt}};
}

Ceiling ceilingFromJson(const json& j) {
  const std::string what = "Ceiling";
  Ceiling c;
  c.device = field<std::string>(j, "device", what);
  c.name = field<std::string>(j, "name", what);
  c.measured = field<double>(j, "measured", what);
  c.datasheet = field<double>(j, "datasheet", what);
  c.unit = field<std::string>(j, "unit", what);
  c.measuredAt = field<std::int64_t>(j, "measuredAt", what);
  return c;
}

json toJson(const Task& t) {
  return {{"id", t.id}, {"name", t.name}, {"family", t.family}, {"specJson", t.specJson}, {"specVersion", t.specVersion}};
}

Task taskFromJson(const json& j) {
  const std::string what = "Task";
  Task t;
  t.id = field<TaskId>(j, "id", what);
  t.name = field<std::string>(j, "name", what);
  t.family = field<std::string>(j, "family", what);
  t.specJson = field<std::string>(j, "specJson", what);
  t.specVersion = field<int>(j, "specVersion", what);
  return t;
}

// ---------------------------------------------------------------- profile

json profileToJson(const std::map<std::string, double>& profile) { return json(profile); }

std::map<std::string, double> profileFromJson(const json& j) {
  return read<std::map<std::string, double>>(j, [] { return std::string("profile"); });
}

}  // namespace crucible
