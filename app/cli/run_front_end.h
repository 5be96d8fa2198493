// SPDX-License-Identifier: GPL-3.0-or-later
// What `crucible-cli run` and `resume` choose besides the engine settings:
// the proposer (the template proposer, or a language model with its settings
// file) and where evaluations go (this machine's GPUs, or a Slurm cluster
// with its settings file). Checked before anything is probed or written, so a
// bad choice is a usage error (exit 2) naming the option, the file and the
// field. Stored in the run so `resume` rebuilds the same backends.
#pragma once
#include <optional>
#include <string>
#include "app/cli/options.h"
#include "backends/dispatch/slurm/slurm_settings.h"
#include "backends/proposers/llm/llm_settings.h"

namespace crucible::cli {

// The choice as the run stores it: file paths are absolute (resume may run elsewhere).
struct FrontEnd {
  std::string proposer = "template";   // "template" | "llm"
  std::string llmSettingsFile;         // with "llm"
  std::string dispatch = "local";      // "local" | "slurm"
  std::string slurmSettingsFile;       // with "slurm"
};

// From the command line; `stored` (resume) is the run's choice, which the
// options given override. Throws UsageError.
FrontEnd frontEndFromOptions(const Options& o, const std::optional<FrontEnd>& stored = std::nullopt);

// The settings files, read with bounded work and checked; errors name the
// file and the field (UsageError). readLlmSettings also checks that the key's
// environment variable is set when the file names one (the key is not shown).
llm::LlmSettings readLlmSettings(const std::string& file);
SlurmSettings readSlurmSettingsFile(const std::string& file);

// Run::settingsJson with the choice added under "frontEnd" (runSettingsFromJson
// ignores it), and the choice read back: nullopt for a run made before it was
// stored (the template proposer, local GPUs). A malformed one is a UsageError.
std::string withFrontEnd(const std::string& settingsJson, const FrontEnd& f);
std::optional<FrontEnd> frontEndOf(const std::string& settingsJson);

}  // namespace crucible::cli
