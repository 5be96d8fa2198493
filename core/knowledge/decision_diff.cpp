// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/knowledge/decision_diff.h"

#include <nlohmann/json.hpp>

namespace crucible {
namespace {

void flatten(const nlohmann::json& j, const std::string& prefix, std::map<std::string, std::string>& out) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it)
      flatten(it.value(), prefix.empty() ? it.key() : prefix + "." + it.key(), out);
  } else if (j.is_string()) {
    out[prefix] = j.get<std::string>();
  } else {
    out[prefix] = j.dump();
  }
}

template <typename Map>
std::optional<DecisionChange> singleChange(const Map& a, const Map& b, int& differences) {
  std::optional<DecisionChange> change;
  differences = 0;
  auto note = [&](const std::string& key, const std::string& from, const std::string& to) {
    if (++differences == 1) change = DecisionChange{key, from, to};
  };
  for (const auto& [key, value] : a) {
    auto it = b.find(key);
    if (it == b.end())
      note(key, value, "(none)");
    else if (it->second != value)
      note(key, value, it->second);
  }
  for (const auto& [key, value] : b)
    if (!a.count(key)) note(key, "(none)", value);
  return differences == 1 ? change : std::nullopt;
}

}  // namespace

std::map<std::string, std::string> flattenGenome(const std::string& genomeJson) {
  std::map<std::string, std::string> out;
  auto j = nlohmann::json::parse(genomeJson, nullptr, /*allow_exceptions=*/false);
  if (j.is_object()) flatten(j, "", out);
  return out;
}

bool hasDesignGenome(const Candidate& c) {
  const auto j = nlohmann::json::parse(c.genomeJson, nullptr, /*allow_exceptions=*/false);
  return j.is_object() && ((j.contains("genes") && j.at("genes").is_object()) ||
                           (j.contains("params") && j.at("params").is_object()));
}

namespace {

bool sameDimensions(const std::map<std::string, std::string>& a, const std::map<std::string, std::string>& b) {
  if (a.size() != b.size()) return false;
  for (auto x = a.begin(), y = b.begin(); x != a.end(); ++x, ++y)
    if (x->first != y->first) return false;
  return true;
}

bool isTemplateGenome(const Candidate& c) {
  const auto j = nlohmann::json::parse(c.genomeJson, nullptr, /*allow_exceptions=*/false);
  return j.is_object() && j.contains("genes") && j.at("genes").is_object();
}

// The design leaves ("genes.*", "params.*") of two genomes, when everything
// else in them (family, a tunable kernel's name and table) is equal.
std::optional<std::pair<std::map<std::string, std::string>, std::map<std::string, std::string>>> designLeaves(
    const Candidate& a, const Candidate& b) {
  auto fa = flattenGenome(a.genomeJson), fb = flattenGenome(b.genomeJson);
  std::map<std::string, std::string> da, db, ra, rb;
  auto split = [](const std::map<std::string, std::string>& all, std::map<std::string, std::string>& design,
                  std::map<std::string, std::string>& rest) {
    for (const auto& [k, v] : all)
      (k.rfind("genes.", 0) == 0 || k.rfind("params.", 0) == 0 ? design : rest)[k] = v;
  };
  split(fa, da, ra);
  split(fb, db, rb);
  if (ra != rb) return std::nullopt;
  return std::pair{std::move(da), std::move(db)};
}

}  // namespace

std::optional<DecisionChange> singleDifference(const Candidate& parent, const Candidate& child) {
  int differences = 0;
  const bool designed = hasDesignGenome(parent) && hasDesignGenome(child);
  if (parent.descriptor != child.descriptor) {
    if (parent.descriptor.empty() || child.descriptor.empty()) return std::nullopt;
    const bool oneSpace = isTemplateGenome(parent) && isTemplateGenome(child);
    if (!oneSpace && !sameDimensions(parent.descriptor, child.descriptor)) return std::nullopt;
    auto change = singleChange(parent.descriptor, child.descriptor, differences);
    if (change && change->dimension == "kernel") return std::nullopt;
    return change;
  }
  // Equal descriptors: only a design genome says what else changed.
  if (!designed) return std::nullopt;
  const auto leaves = designLeaves(parent, child);
  if (!leaves) return std::nullopt;
  return singleChange(leaves->first, leaves->second, differences);
}

}  // namespace crucible
