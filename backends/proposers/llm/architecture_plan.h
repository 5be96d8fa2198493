// SPDX-License-Identifier: GPL-3.0-or-later
// The first turn's answer: the architecture the model proposes, as a name and
// a short plan, before any code. In a gated run this is what a reviewer sees.
// Accepted forms: a ```json block {"name": ..., "plan": ...}, a bare JSON
// object, or the heading form "Architecture: <name>" followed by "Plan:".
#pragma once
#include <string>

namespace crucible::llm {

struct ArchitecturePlan {
  std::string name;  // at most 80 characters, one line
  std::string plan;  // at most 4000 characters
};

struct PlanParse {
  bool ok = false;
  ArchitecturePlan plan;
  std::string problem;
};

PlanParse parseArchitecturePlan(const std::string& reply);

// "warp per row, float4 loads" -> "warp-per-row-float4-loads" (architecture keys).
std::string slugOf(const std::string& name);

}  // namespace crucible::llm
