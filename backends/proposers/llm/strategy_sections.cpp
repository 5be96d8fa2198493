// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/proposers/llm/strategy_sections.h"

namespace crucible::llm {
namespace {

constexpr std::size_t kMaxSections = 16;

std::string trimmed(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

}  // namespace

std::vector<StrategySection> strategySections(const std::string& text) {
  std::vector<StrategySection> out;
  StrategySection current{"Guidance", ""};
  bool any = false;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t eol = text.find('\n', pos);
    if (eol == std::string::npos) eol = text.size();
    const std::string line = text.substr(pos, eol - pos);
    pos = eol + 1;
    if (line.rfind("## ", 0) == 0) {
      current.body = trimmed(current.body);
      if (any || !current.body.empty()) out.push_back(current);
      if (out.size() >= kMaxSections) return out;
      current = StrategySection{trimmed(line.substr(3)), ""};
      any = true;
    } else {
      current.body += line + "\n";
    }
    if (eol == text.size()) break;
  }
  current.body = trimmed(current.body);
  if ((any || !current.body.empty()) && out.size() < kMaxSections) out.push_back(current);
  return out;
}

std::string strategyText(const std::vector<StrategySection>& sections) {
  std::string out;
  for (const auto& s : sections) out += (out.empty() ? "" : "\n") + std::string("## ") + s.title + "\n" + s.body + "\n";
  return out;
}

std::string strategyMode(const std::string& name, bool hasParent) {
  for (const char* mode : {"edit", "rewrite", "explore"}) {
    const std::string prefix = std::string("llm:") + mode;
    if (name == prefix || name.rfind(prefix + ":", 0) == 0) {
      if (!hasParent && std::string(mode) != "explore") return "explore";
      return mode;
    }
  }
  return hasParent ? "rewrite" : "explore";
}

}  // namespace crucible::llm
