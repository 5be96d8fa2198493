// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/proposers/llm/launch_rule_reply.h"

#include <cctype>
#include <cstdint>
#include <stdexcept>
#include <nlohmann/json.hpp>
#include "core/io/utf8_text.h"
#include "core/task/expression.h"
#include "core/task/kernel_abi.h"
#include "core/task/launch_limits.h"
#include "core/task/launch_variables.h"

namespace crucible::llm {
namespace {

using nlohmann::json;

constexpr std::size_t kMaxLaunchJsonBytes = 64 * 1024;
constexpr std::size_t kMaxTensorMaps = 16;

struct Problem : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string expressionText(const json& j, const std::string& field) {
  if (j.is_string()) return j.get<std::string>();
  if (j.is_number_integer()) return std::to_string(j.get<std::int64_t>());
  if (j.is_number_unsigned()) return std::to_string(j.get<std::uint64_t>());
  throw Problem(field + ": must be an expression string or an integer, not " + std::string(j.type_name()));
}

void readDims(const json& j, const std::string& name, std::string (&dims)[3]) {
  if (!j.is_array()) {
    // A single expression is the x dimension.
    dims[0] = expressionText(j, name);
    dims[1] = dims[2] = "1";
    return;
  }
  if (j.empty() || j.size() > 3) throw Problem(name + ": must list 1 to 3 expressions (x, y, z)");
  for (std::size_t i = 0; i < 3; ++i)
    dims[i] = i < j.size() ? expressionText(j[i], name + "[" + std::to_string(i) + "]") : "1";
}

bool isIdentifier(const std::string& s) {
  if (s.empty() || s.size() > 128 || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

}  // namespace

std::string launchRuleProblem(const LaunchRule& rule, const TaskSpec& spec) {
  try {
    if (!isIdentifier(rule.entry)) throw Problem("entry: '" + rule.entry + "' is not a C identifier");
    // The proposer knows no GPU: a rule that uses sm_count is checked at each SM count it could
    // meet (core/task/launch_variables.h), and the worker checks it again with its GPU's.
    for (const std::int64_t smCount : smCountsCheckedWithoutGpu(rule))
      if (const auto problem = launchLimitProblem(rule, launchNames(spec.axes, smCount), smCountNote(smCount)))
        throw Problem(problem->text() + " (axes: " + describeAxes(spec.axes) + ")");
    if (const auto problems = tensorMapProblems(spec, rule.tensorMaps); !problems.empty())
      throw Problem(problems.front());
  } catch (const Problem& p) {
    return p.what();
  }
  return "";
}

LaunchRuleParse parseLaunchRuleReply(const std::string& jsonText, const TaskSpec& spec, const std::string& defaultEntry) {
  LaunchRuleParse out;
  if (jsonText.size() > kMaxLaunchJsonBytes) {
    out.problem = "the launch rule JSON has " + std::to_string(jsonText.size()) + " bytes, above the limit of " +
                  std::to_string(kMaxLaunchJsonBytes);
    return out;
  }
  json j;
  try {
    j = json::parse(jsonText);
  } catch (const json::exception& e) {
    out.problem = std::string("the launch rule is not valid JSON: ") + utf8Repaired(e.what());
    return out;
  }
  try {
    if (!j.is_object()) throw Problem("the launch rule must be a JSON object with grid, block, dynamicSmemBytes, entry");
    // A model may wrap the rule: {"launch": {...}}.
    if (j.contains("launch") && j["launch"].is_object() && !j.contains("grid")) j = j["launch"];
    LaunchRule r;
    r.entry = defaultEntry;
    if (j.contains("entry")) {
      if (!j["entry"].is_string()) throw Problem("entry: must be a string");
      r.entry = j["entry"].get<std::string>();
    }
    if (!j.contains("grid")) throw Problem("grid: missing");
    if (!j.contains("block")) throw Problem("block: missing");
    readDims(j["grid"], "grid", r.grid);
    readDims(j["block"], "block", r.block);
    if (j.contains("dynamicSmemBytes")) r.dynamicSmemBytes = expressionText(j["dynamicSmemBytes"], "dynamicSmemBytes");
    if (j.contains("tensorMaps")) {
      const json& maps = j["tensorMaps"];
      if (!maps.is_array()) throw Problem("tensorMaps: must be an array");
      if (maps.size() > kMaxTensorMaps) throw Problem("tensorMaps: more than " + std::to_string(kMaxTensorMaps) + " maps");
      for (std::size_t i = 0; i < maps.size(); ++i) {
        const std::string field = "tensorMaps[" + std::to_string(i) + "]";
        const json& m = maps[i];
        if (!m.is_object()) throw Problem(field + ": must be an object");
        TensorMapRule t;
        if (!m.contains("tensor") || !m["tensor"].is_string()) throw Problem(field + ".tensor: missing or not a string");
        t.tensor = m["tensor"].get<std::string>();
        for (const char* key : {"boxRows", "boxCols"}) {
          if (!m.contains(key) || !m[key].is_number_integer())
            throw Problem(field + "." + key + ": missing or not an integer");
          const std::int64_t v = m[key].get<std::int64_t>();
          if (v < 1 || v > 256) throw Problem(field + "." + key + ": " + std::to_string(v) + " outside 1..256");
          (std::string(key) == "boxRows" ? t.boxRows : t.boxCols) = static_cast<int>(v);
        }
        if (m.contains("swizzle")) {
          if (!m["swizzle"].is_string()) throw Problem(field + ".swizzle: must be a string");
          t.swizzle = m["swizzle"].get<std::string>();
        }
        r.tensorMaps.push_back(t);
      }
    }
    if (const std::string p = launchRuleProblem(r, spec); !p.empty()) throw Problem(p);
    out.ok = true;
    out.rule = r;
  } catch (const Problem& p) {
    out.problem = p.what();
  } catch (const json::exception& e) {
    out.problem = std::string("the launch rule: ") + utf8Repaired(e.what());
  }
  return out;
}

std::string launchRuleJson(const LaunchRule& rule) {
  json j;
  j["entry"] = rule.entry;
  j["grid"] = json::array({rule.grid[0], rule.grid[1], rule.grid[2]});
  j["block"] = json::array({rule.block[0], rule.block[1], rule.block[2]});
  j["dynamicSmemBytes"] = rule.dynamicSmemBytes;
  if (!rule.tensorMaps.empty()) {
    j["tensorMaps"] = json::array();
    for (const auto& t : rule.tensorMaps)
      j["tensorMaps"].push_back({{"tensor", t.tensor}, {"boxRows", t.boxRows}, {"boxCols", t.boxCols}, {"swizzle", t.swizzle}});
  }
  return j.dump();
}

}  // namespace crucible::llm
