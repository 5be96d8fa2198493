// SPDX-License-Identifier: GPL-3.0-or-later
// toJson: writes a TaskSpec in format 1, fields in the order the README
// documents them, kernel sources as arrays of lines so that files stay
// readable. parseTaskSpec(toJson(s)) gives back s.
#include "core/task/task_spec.h"

#include <nlohmann/json.hpp>
#include "core/task/task_spec_operator.h"

namespace crucible {
namespace {

using ojson = nlohmann::ordered_json;

ojson lines(const std::string& source) {
  ojson out = ojson::array();
  std::size_t start = 0;
  for (;;) {
    const std::size_t end = source.find('\n', start);
    out.push_back(source.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) return out;
    start = end + 1;
  }
}

ojson distribution(const Distribution& d) {
  ojson j;
  j["kind"] = d.kind;
  if (d.kind == "normal") {
    j["mean"] = d.a;
    j["stddev"] = d.b;
  } else if (d.kind == "randint") {
    j["low"] = static_cast<std::int64_t>(d.a);
    j["high"] = static_cast<std::int64_t>(d.b);
  } else {
    j["low"] = d.a;
    j["high"] = d.b;
  }
  return j;
}

ojson tensor(const TensorSpec& t, bool input) {
  ojson j;
  j["name"] = t.name;
  j["dtype"] = toString(t.dtype);
  j["shape"] = t.shape;
  if (input) j["distribution"] = distribution(t.distribution);
  return j;
}

ojson kernel(const SpecKernel& k) {
  ojson launch;
  launch["entry"] = k.launch.entry;
  launch["grid"] = {k.launch.grid[0], k.launch.grid[1], k.launch.grid[2]};
  launch["block"] = {k.launch.block[0], k.launch.block[1], k.launch.block[2]};
  launch["dynamicSmemBytes"] = k.launch.dynamicSmemBytes;
  if (!k.launch.tensorMaps.empty()) {
    ojson maps = ojson::array();
    for (const auto& m : k.launch.tensorMaps)
      maps.push_back({{"tensor", m.tensor}, {"boxRows", m.boxRows}, {"boxCols", m.boxCols}, {"swizzle", m.swizzle}});
    launch["tensorMaps"] = maps;
  }
  ojson j;
  j["launch"] = launch;
  j["source"] = lines(k.source);
  return j;
}

}  // namespace

TaskSpec atSanitizeShape(TaskSpec spec) {
  for (const auto& [name, value] : spec.sanitizeAxes) spec.axes[name] = value;
  return spec;
}

Tolerance toleranceOf(const TaskSpec& spec, const std::string& output, const StressCase* stress) {
  if (stress)
    if (auto it = stress->tolerances.find(output); it != stress->tolerances.end()) return it->second;
  auto it = spec.tolerances.find(output);
  return it == spec.tolerances.end() ? Tolerance{} : it->second;
}

const Distribution& distributionOf(const TaskSpec& spec, std::size_t input, const StressCase* stress) {
  const TensorSpec& t = spec.inputs.at(input);
  if (stress)
    if (auto it = stress->inputs.find(t.name); it != stress->inputs.end()) return it->second;
  return t.distribution;
}

std::string describeAxes(const std::map<std::string, std::int64_t>& axes) {
  std::string s;
  for (const auto& [name, value] : axes) s += (s.empty() ? "" : ", ") + name + "=" + std::to_string(value);
  return s;
}

std::string toJson(const TaskSpec& spec) {
  ojson j;
  j["format"] = spec.formatVersion;
  j["name"] = spec.name;
  j["family"] = spec.family;
  j["description"] = spec.description;
  j["axes"] = ojson::object();
  for (const auto& [name, value] : spec.axes) j["axes"][name] = value;
  j["inputs"] = ojson::array();
  for (const auto& t : spec.inputs) j["inputs"].push_back(tensor(t, true));
  j["outputs"] = ojson::array();
  for (const auto& t : spec.outputs) j["outputs"].push_back(tensor(t, false));
  j["scalars"] = spec.scalars;
  j["tolerances"] = ojson::object();
  for (const auto& [name, t] : spec.tolerances) j["tolerances"][name] = {{"rtol", t.rtol}, {"atol", t.atol}};
  j["flops"] = spec.flops;
  j["minBytes"] = spec.minBytes;
  j["entry"] = spec.entry;
  j["libraryReference"] = spec.libraryReference;
  if (!spec.sanitizeAxes.empty()) {
    j["sanitizeAxes"] = ojson::object();
    for (const auto& [name, value] : spec.sanitizeAxes) j["sanitizeAxes"][name] = value;
  }
  if (spec.operation) j["operator"] = operatorToJson(*spec.operation);
  if (!spec.stress.empty()) {
    j["stress"] = ojson::array();
    for (const auto& c : spec.stress) {
      ojson one;
      one["name"] = c.name;
      one["inputs"] = ojson::object();
      for (const auto& [name, d] : c.inputs) one["inputs"][name] = distribution(d);
      if (!c.tolerances.empty()) {
        one["tolerances"] = ojson::object();
        for (const auto& [name, t] : c.tolerances) one["tolerances"][name] = {{"rtol", t.rtol}, {"atol", t.atol}};
      }
      j["stress"].push_back(one);
    }
  }
  j["baseline"] = kernel(spec.baseline);
  j["oracle"] = kernel(spec.oracle);
  return j.dump(2) + "\n";
}

}  // namespace crucible
