// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/proposers/template/genome.h"

#include <nlohmann/json.hpp>
#include <stdexcept>

namespace crucible::templates {

std::string Genome::architectureKey() const {
  std::string key = "template:" + family + ":";
  bool first = true;
  for (const auto& [name, value] : genes) {
    if (!first) key += ";";
    key += name + "=" + value;
    first = false;
  }
  return key;
}

std::string Genome::toJson() const {
  nlohmann::json j;
  j["family"] = family;
  j["genes"] = nlohmann::json::object();
  for (const auto& [k, v] : genes) j["genes"][k] = v;
  j["params"] = nlohmann::json::object();
  for (const auto& [k, v] : params) j["params"][k] = v;
  return j.dump();
}

std::string Genome::genesText() const {
  std::string s;
  for (const auto& [k, v] : genes) s += (s.empty() ? "" : " ") + k + "=" + v;
  return s;
}

std::string Genome::paramsText() const {
  std::string s;
  for (const auto& [k, v] : params) s += (s.empty() ? "" : " ") + k + "=" + std::to_string(v);
  return s.empty() ? "(none)" : s;
}

Genome Genome::fromJson(const std::string& json) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(json);
  } catch (const nlohmann::json::exception& e) {  // parse_error, or out_of_range for a number like 1e999
    throw std::invalid_argument(std::string("genome: not JSON: ") + e.what());
  }
  if (!j.is_object()) throw std::invalid_argument("genome: expected a JSON object");
  if (!j.contains("family") || !j["family"].is_string())
    throw std::invalid_argument("genome.family: missing or not a string");
  Genome g;
  g.family = j["family"].get<std::string>();
  if (j.contains("genes")) {
    if (!j["genes"].is_object()) throw std::invalid_argument("genome.genes: expected an object");
    for (const auto& [k, v] : j["genes"].items()) {
      if (!v.is_string()) throw std::invalid_argument("genome.genes." + k + ": expected a string");
      g.genes[k] = v.get<std::string>();
    }
  }
  if (j.contains("params")) {
    if (!j["params"].is_object()) throw std::invalid_argument("genome.params: expected an object");
    for (const auto& [k, v] : j["params"].items()) {
      if (!v.is_number_integer()) throw std::invalid_argument("genome.params." + k + ": expected an integer");
      g.params[k] = v.get<std::int64_t>();
    }
  }
  return g;
}

const std::string& Genome::gene(const std::string& name) const {
  auto it = genes.find(name);
  if (it == genes.end()) throw std::invalid_argument("genome: no gene '" + name + "' (" + architectureKey() + ")");
  return it->second;
}

std::int64_t Genome::param(const std::string& name) const {
  auto it = params.find(name);
  if (it == params.end()) throw std::invalid_argument("genome: no parameter '" + name + "' (" + architectureKey() + ")");
  return it->second;
}

}  // namespace crucible::templates
