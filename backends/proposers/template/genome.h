// SPDX-License-Identifier: GPL-3.0-or-later
// A template kernel's genome: architecture genes (which code is emitted) and
// tunable parameters (the named constants in that code).
//   genomeJson      = {"family": "softmax", "genes": {...}, "params": {...}}
//   architectureKey = "template:softmax:gene=value;gene=value"  (genes only)
#pragma once
#include <cstdint>
#include <map>
#include <string>

namespace crucible::templates {

using GeneMap = std::map<std::string, std::string>;
using ParamMap = std::map<std::string, std::int64_t>;

struct Genome {
  std::string family;   // the task family, e.g. "softmax"
  GeneMap genes;        // "memory" -> "registers"
  ParamMap params;      // "ROWS_PER_BLOCK" -> 4

  bool operator==(const Genome&) const = default;

  std::string architectureKey() const;
  std::string toJson() const;
  // "granularity=warp memory=registers" / "ROWS_PER_BLOCK=4": for comments and logs.
  std::string genesText() const;
  std::string paramsText() const;
  // Throws std::invalid_argument naming what is malformed.
  static Genome fromJson(const std::string& json);

  const std::string& gene(const std::string& name) const;      // throws if absent
  std::int64_t param(const std::string& name) const;           // throws if absent
};

}  // namespace crucible::templates
