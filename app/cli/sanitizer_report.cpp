// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/sanitizer_report.h"

#include <iomanip>
#include "core/engine/seal_policy.h"
#include "core/io/utf8_text.h"

namespace crucible::cli {

void printSanitizerReport(std::ostream& out, const SanitizerReport& report) {
  if (!report.ran) {
    out << "sanitizers: DID NOT RUN: " << report.unavailableReason << "\n";
    return;
  }
  out << "sanitizers: " << (report.clean ? "clean" : "NOT CLEAN") << " (" << std::fixed << std::setprecision(1)
      << report.seconds << " s)" << std::defaultfloat << "\n";
  for (const std::string& tool : report.tools) {
    int findings = 0;
    for (const auto& f : report.findings) findings += f.tool == tool;
    const auto reported = report.reportedErrors.find(tool);
    out << "  " << tool << ": " << (findings == 0 ? "clean" : "NOT CLEAN");
    if (reported != report.reportedErrors.end() && reported->second > 0) out << ", " << reported->second << " reported";
    out << "\n";
    for (const auto& f : report.findings)
      if (f.tool == tool) out << "    " << terminalText(f.message) << "\n";
  }
  if (auto why = sanitizerRefusal(&report)) out << "a seal would be refused: " << *why << "\n";
  if (!report.clean && !report.log.empty()) out << "the tools' reports:\n" << terminalText(report.log) << "\n";
}

nlohmann::json sanitizerReportJson(const SanitizerReport& report) {
  nlohmann::json findings = nlohmann::json::array();
  for (const auto& f : report.findings) findings.push_back({{"tool", f.tool}, {"message", f.message}});
  return {{"ran", report.ran},          {"clean", report.clean},       {"unavailableReason", report.unavailableReason},
          {"tools", report.tools},      {"reported", report.reportedErrors}, {"findings", findings},
          {"seconds", report.seconds},  {"log", report.log}};
}

}  // namespace crucible::cli
