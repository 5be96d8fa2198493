// SPDX-License-Identifier: GPL-3.0-or-later
// Tunable kernels: the tune document, restrictions, and a kernel bound to a
// task (see tunable_kernel.h and resources/tasks/README.md, "Tunable kernels").
#include "core/task/tunable_kernel.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdio>
#include <set>
#include <string_view>
#include "core/io/bounded_file.h"
#include "core/io/json_nesting.h"
#include "core/task/expression.h"
#include "core/task/identifier.h"
#include "core/task/json_fields.h"
#include "core/task/kernel_abi.h"
#include "core/task/launch_limits.h"
#include "core/task/launch_variables.h"

namespace crucible {

const char* const kTuneHeaderEnd = "// end of tunable parameters\n";

namespace {

using namespace taskjson;

constexpr int kFormatVersion = 1;
constexpr const char* kEmbeddedOpen = "/* crucible-tune";

bool isIdentStart(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
bool isIdentChar(char c) { return isIdentStart(c) || (c >= '0' && c <= '9'); }

std::string valueText(std::int64_t v) { return v < 0 ? "(" + std::to_string(v) + ")" : std::to_string(v); }

// ---------------------------------------------------------------- the document

json parseDocument(const std::string& text) {
  if (text.size() > kMaxTuneDocumentBytes)
    throw TaskSpecError("document", std::to_string(text.size()) + " bytes, above the limit of " +
                                        std::to_string(kMaxTuneDocumentBytes >> 10) + " KiB for a tune document");
  if (const std::size_t at = findJsonNestingBeyond(text); at != std::string_view::npos)
    throw TaskSpecError("document", "nests deeper than " + std::to_string(kMaxJsonNesting) + " levels (at byte " +
                                        std::to_string(at) + ")");
  const json doc = json::parse(text, nullptr, false);
  if (doc.is_discarded()) throw TaskSpecError("document", "not valid JSON");
  return doc;
}

std::string parameterName(const std::string& key, const std::string& path) {
  if (auto problem = identifierFormProblem(key)) throw TaskSpecError(path, *problem);
  if (auto problem = reservedNameProblem(key)) throw TaskSpecError(path, *problem);
  if (isExpressionFunction(key))
    throw TaskSpecError(path, "'" + key + "' is a function of the expression language, not a parameter name");
  if (key == kSmCountName)
    throw TaskSpecError(path, "'" + key + "' is the GPU's SM count in launch rules, not a name a parameter can take");
  return key;
}

std::vector<TunableParameter> parseParameters(const Fields& root) {
  const json& j = root.required("parameters");
  if (!j.is_object()) throw TaskSpecError("parameters", "must be an object of parameter name -> list of integers");
  if (j.size() > kMaxTuneParameters)
    throw TaskSpecError("parameters", "names " + std::to_string(j.size()) + " parameters, more than the limit of " +
                                          std::to_string(kMaxTuneParameters));
  std::vector<TunableParameter> out;
  long double points = 1;
  for (auto it = j.begin(); it != j.end(); ++it) {  // nlohmann's objects iterate in name order
    const std::string path = child("parameters", it.key());
    TunableParameter p;
    p.name = parameterName(it.key(), path);
    const json& list = asArray(*it, path, kMaxTuneValuesPerParameter);
    if (list.empty()) throw TaskSpecError(path, "must list at least one value");
    for (std::size_t i = 0; i < list.size(); ++i)
      p.values.push_back(asIntegerIn(list[i], index(path, i), -kMaxTuneValueMagnitude, kMaxTuneValueMagnitude));
    std::vector<std::int64_t> sorted = p.values;
    std::sort(sorted.begin(), sorted.end());
    if (auto dup = std::adjacent_find(sorted.begin(), sorted.end()); dup != sorted.end())
      throw TaskSpecError(path, "lists the value " + std::to_string(*dup) + " twice");
    p.values = sorted;
    points *= static_cast<long double>(p.values.size());
    out.push_back(std::move(p));
  }
  if (points > static_cast<long double>(kMaxTuneSpacePoints))
    throw TaskSpecError("parameters", "the space has " + std::to_string(static_cast<unsigned long long>(points)) +
                                          " points (the product of the value counts), more than the limit of " +
                                          std::to_string(kMaxTuneSpacePoints) +
                                          ": list fewer values, or fix some parameters in the source");
  return out;
}

std::vector<std::string> parseRestrictions(const Fields& root) {
  std::vector<std::string> out;
  const json* j = root.optional("restrictions");
  if (!j) return out;
  const json& list = asArray(*j, "restrictions", kMaxTuneRestrictions);
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string path = index("restrictions", i);
    std::string text = asNonEmptyString(list[i], path);
    if (text.size() > kMaxExpressionLength)
      throw TaskSpecError(path, std::to_string(text.size()) + " characters, more than the limit of " +
                                    std::to_string(kMaxExpressionLength));
    out.push_back(std::move(text));
  }
  return out;
}

void parseDims(const Fields& launch, const char* key, std::string (&dims)[3]) {
  const std::string path = launch.path(key);
  const json& list = asArray(launch.required(key), path);
  if (list.empty() || list.size() > 3) throw TaskSpecError(path, "must list 1 to 3 expressions (x, y, z)");
  for (std::size_t i = 0; i < 3; ++i) {
    dims[i] = i < list.size() ? asExpressionText(list[i], index(path, i)) : "1";
    if (dims[i].size() > kMaxExpressionLength)
      throw TaskSpecError(index(path, i), "longer than " + std::to_string(kMaxExpressionLength) + " characters");
  }
}

LaunchRule parseLaunch(const Fields& root) {
  const Fields launch(root.required("launch"), "launch");
  launch.rejectUnknown({"grid", "block", "dynamicSmemBytes"});
  LaunchRule rule;
  parseDims(launch, "grid", rule.grid);
  parseDims(launch, "block", rule.block);
  if (const json* smem = launch.optional("dynamicSmemBytes")) {
    rule.dynamicSmemBytes = asExpressionText(*smem, launch.path("dynamicSmemBytes"));
    if (rule.dynamicSmemBytes.size() > kMaxExpressionLength)
      throw TaskSpecError(launch.path("dynamicSmemBytes"), "longer than " + std::to_string(kMaxExpressionLength) + " characters");
  }
  return rule;
}

ParameterPoint parseDefault(const Fields& root, const std::vector<TunableParameter>& parameters) {
  ParameterPoint point;
  const json* j = root.optional("default");
  if (!j) return point;
  if (!j->is_object()) throw TaskSpecError("default", "must be an object of parameter name -> value");
  for (auto it = j->begin(); it != j->end(); ++it) {
    const std::string path = child("default", it.key());
    const auto p = std::find_if(parameters.begin(), parameters.end(), [&](const auto& t) { return t.name == it.key(); });
    if (p == parameters.end()) throw TaskSpecError(path, "no parameter named " + quotedValue(it.key()));
    const std::int64_t v = asIntegerIn(*it, path, -kMaxTuneValueMagnitude, kMaxTuneValueMagnitude);
    if (std::find(p->values.begin(), p->values.end(), v) == p->values.end())
      throw TaskSpecError(path, std::to_string(v) + " is not one of the values of parameter " + p->name);
    point[p->name] = v;
  }
  for (const auto& p : parameters)
    if (!point.count(p.name)) throw TaskSpecError(child("default", p.name), "missing (a default gives every parameter)");
  return point;
}

// ---------------------------------------------------------------- restrictions

// Splits `text` at each `op` outside parentheses.
std::vector<std::string> splitTopLevel(const std::string& text, std::string_view op) {
  std::vector<std::string> parts;
  int depth = 0;
  std::size_t begin = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '(') ++depth;
    if (text[i] == ')') --depth;
    if (depth == 0 && text.compare(i, op.size(), op) == 0) {
      parts.push_back(text.substr(begin, i - begin));
      begin = i + op.size();
      i += op.size() - 1;
    }
  }
  parts.push_back(text.substr(begin));
  return parts;
}

bool blank(const std::string& s) { return s.find_first_not_of(" \t\r\n") == std::string::npos; }

bool evaluateClause(const std::string& clause, const std::map<std::string, std::int64_t>& names) {
  std::size_t at = std::string::npos, width = 0;
  int depth = 0;
  for (std::size_t i = 0; i < clause.size(); ++i) {
    const char c = clause[i];
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (depth != 0 || (c != '<' && c != '>' && c != '=' && c != '!')) continue;
    const bool twoChars = i + 1 < clause.size() && clause[i + 1] == '=';
    if ((c == '=' || c == '!') && !twoChars)
      throw ExpressionError(std::string("'") + c + "' at position " + std::to_string(i + 1) + " of '" + clause +
                            "' is not a comparison (use == or !=)");
    if (at != std::string::npos)
      throw ExpressionError("more than one comparison in '" + clause + "' (join comparisons with &&)");
    at = i;
    width = twoChars ? 2 : 1;
    i += width - 1;
  }
  if (at == std::string::npos) {
    if (blank(clause)) throw ExpressionError("an empty condition (around && or ||)");
    return evaluateAxisExpression(clause, names) != 0;
  }
  const std::string op = clause.substr(at, width), left = clause.substr(0, at), right = clause.substr(at + width);
  if (blank(left) || blank(right)) throw ExpressionError("nothing on one side of '" + op + "' in '" + clause + "'");
  const std::int64_t a = evaluateAxisExpression(left, names), b = evaluateAxisExpression(right, names);
  if (op == "==") return a == b;
  if (op == "!=") return a != b;
  if (op == "<=") return a <= b;
  if (op == ">=") return a >= b;
  if (op == "<") return a < b;
  return a > b;
}

std::uint64_t fnv1a(const std::string& text, std::uint64_t h = 0xcbf29ce484222325ULL) {
  for (unsigned char c : text) h = (h ^ c) * 0x100000001b3ULL;
  return h;
}

}  // namespace

// ---------------------------------------------------------------- public: the document

TuneSpec parseTuneSpec(const std::string& text) {
  const json doc = parseDocument(text);
  try {
    const Fields root(doc, "");
    root.rejectUnknown({"format", "entry", "parameters", "restrictions", "launch", "default"});
    TuneSpec spec;
    if (const json* f = root.optional("format")) {
      spec.formatVersion = static_cast<int>(asIntegerIn(*f, "format", INT_MIN, INT_MAX));
      if (spec.formatVersion != kFormatVersion)
        throw TaskSpecError("format", "version " + std::to_string(spec.formatVersion) + " is not supported (this build reads 1)");
    }
    if (const json* e = root.optional("entry")) {
      spec.entry = asNonEmptyString(*e, "entry");
      if (auto problem = identifierFormProblem(spec.entry)) throw TaskSpecError("entry", *problem);
      if (auto problem = reservedNameProblem(spec.entry)) throw TaskSpecError("entry", *problem);
    }
    spec.parameters = parseParameters(root);
    spec.restrictions = parseRestrictions(root);
    spec.launch = parseLaunch(root);
    spec.defaultPoint = parseDefault(root, spec.parameters);
    return spec;
  } catch (const json::exception& e) {
    throw TaskSpecError("document", e.what());  // a backstop: fields are type-checked before they are read
  }
}

std::string tuneSpecToJson(const TuneSpec& spec) {
  json doc;
  doc["format"] = spec.formatVersion;
  if (!spec.entry.empty()) doc["entry"] = spec.entry;
  doc["parameters"] = json::object();
  for (const auto& p : spec.parameters) doc["parameters"][p.name] = p.values;
  if (!spec.restrictions.empty()) doc["restrictions"] = spec.restrictions;
  doc["launch"]["grid"] = {spec.launch.grid[0], spec.launch.grid[1], spec.launch.grid[2]};
  doc["launch"]["block"] = {spec.launch.block[0], spec.launch.block[1], spec.launch.block[2]};
  doc["launch"]["dynamicSmemBytes"] = spec.launch.dynamicSmemBytes;
  if (!spec.defaultPoint.empty()) doc["default"] = spec.defaultPoint;
  return doc.dump();
}

std::optional<std::string> embeddedTuneText(const std::string& source) {
  const std::size_t open = source.find(kEmbeddedOpen);
  if (open == std::string::npos) return std::nullopt;
  const std::size_t begin = open + std::string_view(kEmbeddedOpen).size();
  const std::size_t end = source.find("*/", begin);
  if (end == std::string::npos) throw TaskSpecError("source", "the /* crucible-tune comment is not closed by */");
  return source.substr(begin, end - begin);
}

bool evaluateRestriction(const std::string& text, const std::map<std::string, std::int64_t>& names) {
  if (text.size() > kMaxExpressionLength)
    throw ExpressionError("longer than " + std::to_string(kMaxExpressionLength) + " characters");
  for (const std::string& alternative : splitTopLevel(text, "||")) {
    bool all = true;
    for (const std::string& clause : splitTopLevel(alternative, "&&")) all = evaluateClause(clause, names) && all;
    if (all) return true;
  }
  return false;
}

// ---------------------------------------------------------------- public: a bound kernel

TunableKernel::TunableKernel(std::string name, std::string source, TuneSpec tune, const TaskSpec& task)
    : name_(std::move(name)), source_(std::move(source)), tune_(std::move(tune)), axes_(task.axes) {
  if (source_.size() > kMaxKernelSourceBytes)
    throw TaskSpecError("source", std::to_string(source_.size()) + " bytes, above the limit of " +
                                      std::to_string(kMaxKernelSourceBytes >> 20) + " MiB");
  if (blank(source_)) throw TaskSpecError("source", "is empty");
  entry_ = tune_.entry.empty() ? task.entry : tune_.entry;

  // A kernel written for another task fails here first, with the parameter that differs.
  if (auto problem = signatureProblem(source_, task, entry_)) throw TaskSpecError("source", *problem);
  // Parameters become macros and expression names: they must not shadow anything of the task's.
  std::set<std::string> taskNames;
  for (const auto& [axis, value] : task.axes) taskNames.insert(axis);
  for (const auto* list : {&task.inputs, &task.outputs})
    for (const auto& t : *list) taskNames.insert(t.name);
  for (const auto& p : tune_.parameters) {
    if (taskNames.count(p.name))
      throw TaskSpecError(child("parameters", p.name), "has the name of an axis or tensor of task '" + task.name +
                                                           "': a #define would replace it in the kernel");
    if (p.name == entry_) throw TaskSpecError(child("parameters", p.name), "has the kernel's name");
  }
  // Every name an expression uses is a parameter or an axis.
  std::set<std::string> known(taskNames);
  for (const auto& t : task.inputs) known.erase(t.name);
  for (const auto& t : task.outputs) known.erase(t.name);
  for (const auto& p : tune_.parameters) known.insert(p.name);
  const auto checkNames = [&](const std::string& text, const std::string& path) {
    for (const std::string& n : namesInExpression(text))
      if (!known.count(n))
        throw TaskSpecError(path, "unknown name '" + n + "' (not a parameter of the tune document nor an axis of task '" +
                                      task.name + "')");
  };
  for (std::size_t i = 0; i < tune_.restrictions.size(); ++i) {
    // Restrictions decide which points exist before any GPU is known (the starting point is
    // found here, when the kernel is read): the SM count is not known to them.
    if (usesSmCount(tune_.restrictions[i]))
      throw TaskSpecError(index("restrictions", i),
                          std::string("uses '") + kSmCountName + "', the GPU's SM count, which only the launch rule may "
                          "use: restrictions are checked before any GPU is known");
    checkNames(tune_.restrictions[i], index("restrictions", i));
  }
  known.insert(kSmCountName);  // the launch rule may size its grid to the GPU
  for (int d = 0; d < 3; ++d) {
    checkNames(tune_.launch.grid[d], index("launch.grid", d));
    checkNames(tune_.launch.block[d], index("launch.block", d));
  }
  checkNames(tune_.launch.dynamicSmemBytes, "launch.dynamicSmemBytes");

  architectureKey_ = "tunable:" + name_ + "@";
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016llx",
                static_cast<unsigned long long>(fnv1a(tuneSpecToJson(tune_), fnv1a(source_))));
  architectureKey_ += std::string(hash, 12);

  if (!tune_.defaultPoint.empty()) {
    if (auto why = problem(tune_.defaultPoint)) throw TaskSpecError("default", "is not legal for task '" + task.name + "': " + *why);
    start_ = tune_.defaultPoint;
  } else {
    start_ = firstLegalPoint();
  }
}

std::optional<std::string> TunableKernel::restrictionProblem(const std::map<std::string, std::int64_t>& names) const {
  for (std::size_t i = 0; i < tune_.restrictions.size(); ++i) {
    const std::string& r = tune_.restrictions[i];
    try {
      if (!evaluateRestriction(r, names)) return "restriction '" + r + "' does not hold";
    } catch (const ExpressionError& e) {
      return "restriction '" + r + "': " + e.what();
    }
  }
  return std::nullopt;
}

std::optional<std::string> TunableKernel::problem(const ParameterPoint& p) const {
  // (Keys, not structured bindings: clang before 16 cannot capture those in a lambda.)
  for (const auto& entry : p)
    if (std::none_of(tune_.parameters.begin(), tune_.parameters.end(),
                     [&](const auto& t) { return t.name == entry.first; }))
      return "kernel '" + name_ + "' has no parameter " + entry.first;
  std::map<std::string, std::int64_t> names = axes_;
  for (const auto& t : tune_.parameters) {
    const auto it = p.find(t.name);
    if (it == p.end()) return "no value for parameter " + t.name;
    if (std::find(t.values.begin(), t.values.end(), it->second) == t.values.end())
      return "parameter " + t.name + " = " + std::to_string(it->second) + " is not one of its values";
    names[t.name] = it->second;
  }
  if (auto why = restrictionProblem(names)) return why;
  // No GPU is known when a point is judged: a rule that uses sm_count must hold at each SM
  // count it could meet (launch_variables.h); the worker checks it again with its GPU's.
  for (const std::int64_t smCount : smCountsCheckedWithoutGpu(tune_.launch))
    if (auto why = launchProblem(launchNames(names, smCount), smCountNote(smCount))) return why;
  return std::nullopt;
}

std::optional<std::string> TunableKernel::launchProblem(const std::map<std::string, std::int64_t>& names,
                                                        const std::string& note) const {
  if (const auto problem = launchLimitProblem(tune_.launch, names, note)) return "launch." + problem->text();
  return std::nullopt;
}

namespace {

// What evaluating an expression costs the search's budget: its characters,
// and a little for the call.
std::uint64_t expressionCost(const std::string& text) { return text.size() + 8; }

// The characters of expression text TunableKernel::problem() evaluates for one point.
std::uint64_t pointCheckCost(const TuneSpec& tune) {
  std::uint64_t restrictions = 0, launch = expressionCost(tune.launch.dynamicSmemBytes);
  for (const std::string& r : tune.restrictions) restrictions += expressionCost(r);
  for (int d = 0; d < 3; ++d) launch += expressionCost(tune.launch.grid[d]) + expressionCost(tune.launch.block[d]);
  return restrictions + launch * smCountsCheckedWithoutGpu(tune.launch).size();
}

}  // namespace

ParameterPoint TunableKernel::firstLegalPoint() const {
  // Depth-first over the table in order; each restriction is checked as soon
  // as every parameter it names has a value, so most of a sparse space is
  // never visited. Bounded by kMaxLegalPointWork.
  const auto& params = tune_.parameters;
  const std::size_t n = params.size();
  std::vector<std::vector<std::size_t>> readyAt(n + 1);  // restrictions decidable once params [0, depth) are set
  for (std::size_t r = 0; r < tune_.restrictions.size(); ++r) {
    std::size_t level = 0;
    for (const std::string& name : namesInExpression(tune_.restrictions[r]))
      for (std::size_t i = 0; i < n; ++i)
        if (params[i].name == name) level = std::max(level, i + 1);
    readyAt[level].push_back(r);
  }
  std::map<std::string, std::int64_t> names = axes_;
  const std::uint64_t pointCost = pointCheckCost(tune_);
  std::uint64_t checks = 0, work = 0;
  std::string lastReason = "no point to check";
  const auto holds = [&](std::size_t depth) {
    for (std::size_t r : readyAt[depth]) {
      ++checks;
      work += expressionCost(tune_.restrictions[r]);
      try {
        if (!evaluateRestriction(tune_.restrictions[r], names)) {
          lastReason = "restriction '" + tune_.restrictions[r] + "' does not hold";
          return false;
        }
      } catch (const ExpressionError& e) {
        lastReason = "restriction '" + tune_.restrictions[r] + "': " + e.what();
        return false;
      }
    }
    return true;
  };
  std::vector<std::size_t> at(n, 0);
  std::size_t depth = 0;
  bool ok = holds(0);  // restrictions over axes only
  if (ok && n == 0) {
    if (auto why = problem({})) throw TaskSpecError("launch", *why);
    return {};
  }
  while (ok) {
    if (work > kMaxLegalPointWork)
      throw TaskSpecError("restrictions", "no legal point found in " + std::to_string(checks) +
                                              " checks, the search's bound (last: " + lastReason +
                                              "): give a legal \"default\"");
    names[params[depth].name] = params[depth].values[at[depth]];
    bool advance = holds(depth + 1);
    if (advance && depth + 1 == n) {
      ParameterPoint p;
      for (std::size_t i = 0; i < n; ++i) p[params[i].name] = params[i].values[at[i]];
      ++checks;
      work += pointCost;
      const auto why = problem(p);
      if (!why) return p;
      lastReason = *why;
      advance = false;
    }
    if (advance) {
      at[++depth] = 0;
      continue;
    }
    // Next value at this depth, or back up.
    while (++at[depth] == params[depth].values.size()) {
      names.erase(params[depth].name);
      if (depth == 0) {
        ok = false;
        break;
      }
      --depth;
    }
  }
  throw TaskSpecError("restrictions", "no point of the space is legal for this task (" + lastReason + ")");
}

std::string TunableKernel::header(const ParameterPoint& p) const {
  std::string h = "// Tunable kernel '" + name_ + "': parameters prepended by Crucible\n";
  for (const auto& t : tune_.parameters) {
    const auto it = p.find(t.name);
    if (it != p.end()) h += "#define " + t.name + " " + valueText(it->second) + "\n";
  }
  return h + kTuneHeaderEnd;
}

std::string TunableKernel::sourceAt(const ParameterPoint& p) const { return header(p) + source_; }

LaunchRule TunableKernel::launchAt(const ParameterPoint& p) const {
  const auto substituted = [&](const std::string& text) {
    std::string out;
    for (std::size_t i = 0; i < text.size();) {
      if (!isIdentChar(text[i])) {
        out += text[i++];
        continue;
      }
      std::size_t end = i;
      while (end < text.size() && isIdentChar(text[end])) ++end;
      const std::string word = text.substr(i, end - i);
      const auto it = p.find(word);
      out += it != p.end() && isIdentStart(word[0]) ? valueText(it->second) : word;
      i = end;
    }
    return out;
  };
  LaunchRule rule;
  rule.entry = entry_;
  for (int d = 0; d < 3; ++d) {
    rule.grid[d] = substituted(tune_.launch.grid[d]);
    rule.block[d] = substituted(tune_.launch.block[d]);
  }
  rule.dynamicSmemBytes = substituted(tune_.launch.dynamicSmemBytes);
  return rule;
}

std::optional<ParameterPoint> TunableKernel::neighbour(const ParameterPoint& from, int changes,
                                                       std::mt19937_64& rng) const {
  std::vector<std::size_t> movable;  // parameters with a value to change to
  for (std::size_t i = 0; i < tune_.parameters.size(); ++i)
    if (tune_.parameters[i].values.size() > 1) movable.push_back(i);
  if (movable.empty()) return std::nullopt;
  const auto otherValue = [&](const TunableParameter& t, std::int64_t current) {
    std::vector<std::int64_t> others;
    for (std::int64_t v : t.values)
      if (v != current) others.push_back(v);
    return others[std::uniform_int_distribution<std::size_t>(0, others.size() - 1)(rng)];
  };
  const int count = std::clamp(changes, 1, static_cast<int>(std::min<std::size_t>(2, movable.size())));
  const std::uint64_t cost = pointCheckCost(tune_);
  std::uint64_t work = 0;
  const auto legal = [&](const ParameterPoint& p) {
    work += cost;
    return !problem(p);
  };
  constexpr int kRandomTries = 64;
  for (int attempt = 0; attempt < kRandomTries; ++attempt) {
    std::vector<std::size_t> pick = movable;
    std::shuffle(pick.begin(), pick.end(), rng);
    ParameterPoint p = from;
    for (int k = 0; k < count; ++k) {
      const auto& t = tune_.parameters[pick[k]];
      const auto it = from.find(t.name);
      p[t.name] = otherValue(t, it == from.end() ? t.values.front() : it->second);
    }
    if (legal(p)) return p;
  }
  // A sparse space: every single-parameter change, in random order.
  std::vector<std::pair<std::size_t, std::int64_t>> moves;
  for (std::size_t i : movable)
    for (std::int64_t v : tune_.parameters[i].values) {
      const auto it = from.find(tune_.parameters[i].name);
      if (it == from.end() || it->second != v) moves.emplace_back(i, v);
    }
  std::shuffle(moves.begin(), moves.end(), rng);
  for (const auto& [i, v] : moves) {
    if (work > kMaxLegalPointWork) break;
    ParameterPoint p = from;
    p[tune_.parameters[i].name] = v;
    if (legal(p)) return p;
  }
  return std::nullopt;
}

std::optional<std::string> sourceBeforeParameters(const std::string& candidateSource) {
  const std::size_t at = candidateSource.find(kTuneHeaderEnd);
  if (at == std::string::npos) return std::nullopt;
  return candidateSource.substr(at + std::string_view(kTuneHeaderEnd).size());
}

}  // namespace crucible
