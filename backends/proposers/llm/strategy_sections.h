// SPDX-License-Identifier: GPL-3.0-or-later
// A language-model strategy (MetaPrompt::text) is a list of titled sections
// ("## Goal\n...", "## Guidance\n..."): the evolvable part of the prompt. The
// model may rewrite their bodies (LlmProposer::varyStrategy); the titles stay.
#pragma once
#include <string>
#include <vector>

namespace crucible::llm {

struct StrategySection {
  std::string title;
  std::string body;  // trimmed
  bool operator==(const StrategySection&) const = default;
};

// "## Title" lines start sections; text before the first heading becomes a
// section titled "Guidance". At most 16 sections are read.
std::vector<StrategySection> strategySections(const std::string& text);
std::string strategyText(const std::vector<StrategySection>& sections);

// The strategy's mode from its name: "edit" (SEARCH/REPLACE edits on the
// parent), "rewrite" (a whole kernel improving on the parent), "explore" (a
// new architecture). Names are "llm:<mode>" or "llm:<mode>:<variant>".
std::string strategyMode(const std::string& name, bool hasParent);

}  // namespace crucible::llm
