// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/axes_option.h"

#include "core/task/axes_override.h"

namespace crucible::cli {

void addAxesOption(CLI::App& app) {
  addValued(app, "axes", "NAME=N,...",
            "run the task at another shape: these axes replace the file's (e.g. M=4096,N=5003); the task is then "
            "a task of its own, named with the axes it changes")
      ->check(CLI::Validator(
          [](std::string& text) {
            try {
              parseAxesOverride(text);
            } catch (const AxesOverrideError& e) {
              throw UsageError(std::string("--axes: ") + e.what());
            }
            return std::string();
          },
          ""));
}

std::string specTextAtAxes(const Options& o, const std::string& specText, const std::string& origin) {
  if (!o.has("axes")) return specText;
  try {
    return withAxesText(specText, parseAxesOverride(o.value("axes")));
  } catch (const AxesOverrideError& e) {
    throw UsageError(std::string("--axes: ") + e.what() + (origin.empty() ? "" : " (" + origin + ")"));
  }
}

}  // namespace crucible::cli
