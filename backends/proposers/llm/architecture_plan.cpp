// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/proposers/llm/architecture_plan.h"

#include <cctype>
#include <nlohmann/json.hpp>
#include "backends/proposers/llm/reply_blocks.h"
#include "core/io/utf8_text.h"

namespace crucible::llm {
namespace {

constexpr std::size_t kMaxName = 80;
constexpr std::size_t kMaxPlan = 4000;
constexpr std::size_t kMaxPlanReply = 64 * 1024;

std::string trimmed(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n*#`");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r\n*`") - b + 1);
}

std::string oneLine(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  return trimmed(s);
}

PlanParse fromJson(const std::string& text) {
  PlanParse out;
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return out;
  if (!j.contains("name") || !j["name"].is_string()) {
    out.problem = "the plan's JSON has no string \"name\"";
    return out;
  }
  out.plan.name = oneLine(j["name"].get<std::string>());
  if (j.contains("plan")) {
    if (j["plan"].is_string()) out.plan.plan = trimmed(j["plan"].get<std::string>());
    else if (j["plan"].is_array())
      for (const auto& step : j["plan"])
        if (step.is_string()) out.plan.plan += "- " + step.get<std::string>() + "\n";
  }
  out.ok = true;
  return out;
}

}  // namespace

PlanParse parseArchitecturePlan(const std::string& reply) {
  PlanParse out;
  const std::string text = utf8Prefix(reply, kMaxPlanReply);
  for (const FencedBlock& b : fencedBlocks(text)) {
    if (b.language != "json" && !b.language.empty()) continue;
    PlanParse p = fromJson(b.body);
    if (p.ok || !p.problem.empty()) {
      out = p;
      break;
    }
  }
  if (!out.ok && out.problem.empty()) {
    const auto open = text.find('{');
    const auto close = text.rfind('}');
    if (open != std::string::npos && close != std::string::npos && close > open)
      out = fromJson(text.substr(open, close - open + 1));
  }
  if (!out.ok && out.problem.empty()) {
    // Heading form.
    std::size_t at = std::string::npos;
    for (const char* h : {"Architecture:", "architecture:", "ARCHITECTURE:"})
      if ((at = text.find(h)) != std::string::npos) break;
    if (at != std::string::npos) {
      const std::size_t nameStart = text.find(':', at) + 1;
      const std::size_t eol = text.find('\n', nameStart);
      out.plan.name = oneLine(text.substr(nameStart, eol == std::string::npos ? std::string::npos : eol - nameStart));
      if (eol != std::string::npos) {
        std::string rest = text.substr(eol + 1);
        const auto plan = rest.find("Plan:");
        out.plan.plan = trimmed(plan == std::string::npos ? rest : rest.substr(plan + 5));
      }
      out.ok = true;
    }
  }
  if (!out.ok) {
    if (out.problem.empty())
      out.problem = "no architecture: expected a ```json block {\"name\": ..., \"plan\": ...} or an \"Architecture: <name>\" line";
    return out;
  }
  if (out.plan.name.empty()) {
    out.ok = false;
    out.problem = "the architecture has an empty name";
    return out;
  }
  out.plan.name = utf8Prefix(out.plan.name, kMaxName);
  out.plan.plan = utf8Shortened(out.plan.plan, kMaxPlan, " [...]");
  return out;
}

std::string slugOf(const std::string& name) {
  std::string s;
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c))) s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    else if (!s.empty() && s.back() != '-') s += '-';
    if (s.size() >= 64) break;
  }
  while (!s.empty() && s.back() == '-') s.pop_back();
  return s.empty() ? "unnamed" : s;
}

}  // namespace crucible::llm
