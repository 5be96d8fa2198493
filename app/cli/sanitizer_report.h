// SPDX-License-Identifier: GPL-3.0-or-later
// A sanitizer report as `crucible-cli eval --sanitize` shows it: a verdict
// line per tool, the findings, and the tools' own reports when not clean.
#pragma once
#include <ostream>
#include <nlohmann/json.hpp>
#include "core/engine/interfaces.h"

namespace crucible::cli {

void printSanitizerReport(std::ostream& out, const SanitizerReport& report);
nlohmann::json sanitizerReportJson(const SanitizerReport& report);

}  // namespace crucible::cli
