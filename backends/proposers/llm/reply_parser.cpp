// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/proposers/llm/reply_parser.h"

#include "backends/proposers/llm/kernel_abi_check.h"
#include "backends/proposers/llm/launch_rule_reply.h"
#include "backends/proposers/llm/reply_blocks.h"
#include "backends/proposers/llm/search_replace.h"

namespace crucible::llm {
namespace {

ParsedReply fail(ReplyOutcome o, std::string reason, std::string source = {}) {
  ParsedReply r;
  r.outcome = o;
  r.reason = std::move(reason);
  r.source = std::move(source);
  return r;
}

// The code block that holds the kernel: the last one naming the entry with
// __global__, else the last with __global__, else none.
const FencedBlock* kernelBlock(const std::vector<FencedBlock>& blocks, const std::string& entry) {
  const FencedBlock* anyGlobal = nullptr;
  const FencedBlock* named = nullptr;
  for (const FencedBlock& b : blocks) {
    if (!(isCodeLanguage(b.language) || b.language.empty())) continue;
    if (b.body.find("__global__") == std::string::npos) continue;
    anyGlobal = &b;
    if (!entry.empty() && b.body.find(entry) != std::string::npos) named = &b;
  }
  return named ? named : anyGlobal;
}

const FencedBlock* lastJsonBlock(const std::vector<FencedBlock>& blocks) {
  const FencedBlock* found = nullptr;
  for (const FencedBlock& b : blocks)
    if (b.language == "json" || b.language == "jsonc") found = &b;
  return found;
}

}  // namespace

const char* replyOutcomeName(ReplyOutcome o) {
  switch (o) {
    case ReplyOutcome::Ok: return "ok";
    case ReplyOutcome::NoCode: return "no-code";
    case ReplyOutcome::Truncated: return "truncated";
    case ReplyOutcome::EditNotApplied: return "edit-not-applied";
    case ReplyOutcome::WrongSignature: return "wrong-signature";
    case ReplyOutcome::BadLaunchRule: return "bad-launch-rule";
    case ReplyOutcome::TooLarge: return "too-large";
  }
  return "unknown";
}

std::string ParsedReply::detail() const {
  return reason.empty() ? replyOutcomeName(outcome) : std::string(replyOutcomeName(outcome)) + ": " + reason;
}

ParsedReply parseKernelReply(const ReplyInput& in) {
  if (!in.spec) return fail(ReplyOutcome::NoCode, "no task to read the reply against");
  const TaskSpec& spec = *in.spec;
  if (in.text.size() > kMaxReplyBytes)
    return fail(ReplyOutcome::TooLarge, "the reply has " + std::to_string(in.text.size()) + " bytes, above the limit of " +
                                            std::to_string(kMaxReplyBytes));
  const bool cutAtMaxTokens = in.stopReason == "length";
  const std::vector<FencedBlock> blocks = fencedBlocks(in.text);

  ParsedReply r;
  std::string defaultEntry = spec.entry;
  LaunchRule inherited;
  bool haveInherited = false;

  if (hasSearchReplaceMarkers(in.text)) {
    const ParsedEdits edits = parseSearchReplace(in.text);
    if (edits.truncated || (cutAtMaxTokens && !edits.problem.empty()))
      return fail(ReplyOutcome::Truncated, (cutAtMaxTokens ? "the model hit its token limit; " : std::string()) + edits.problem);
    if (!edits.problem.empty()) return fail(ReplyOutcome::EditNotApplied, edits.problem);
    if (!in.parent) return fail(ReplyOutcome::EditNotApplied, "the reply has SEARCH/REPLACE edits but there is no parent to edit");
    const EditResult applied = applySearchReplace(in.parent->source, edits.edits);
    if (!applied.ok) return fail(ReplyOutcome::EditNotApplied, applied.problem);
    r.source = applied.source;
    r.fromEdits = true;
    r.edits = static_cast<int>(edits.edits.size());
    inherited = in.parent->launch;
    haveInherited = true;
    defaultEntry = inherited.entry.empty() ? spec.entry : inherited.entry;
  } else {
    for (const FencedBlock& b : blocks)
      if (!b.terminated)
        return fail(ReplyOutcome::Truncated,
                    std::string(cutAtMaxTokens ? "the model hit its token limit; " : "") + "the ```" + b.language +
                        " block opened on line " + std::to_string(b.openingLine) + " never closes",
                    b.body);
    const FencedBlock* code = kernelBlock(blocks, spec.entry);
    if (!code) {
      if (cutAtMaxTokens) return fail(ReplyOutcome::Truncated, "the model hit its token limit before writing a kernel");
      return fail(ReplyOutcome::NoCode, blocks.empty() ? "the reply has no fenced code block"
                                                       : "no fenced code block with a __global__ kernel");
    }
    r.source = code->body;
  }

  if (const std::string p = bracketProblem(r.source); !p.empty())
    return fail(ReplyOutcome::Truncated, (cutAtMaxTokens ? "the model hit its token limit; " : std::string()) + p, r.source);
  if (cutAtMaxTokens && !r.fromEdits && !lastJsonBlock(blocks))
    return fail(ReplyOutcome::Truncated, "the model hit its token limit before the launch rule", r.source);

  if (const FencedBlock* j = lastJsonBlock(blocks)) {
    const LaunchRuleParse lr = parseLaunchRuleReply(j->body, spec, defaultEntry);
    if (!lr.ok) return fail(ReplyOutcome::BadLaunchRule, lr.problem, r.source);
    r.launch = lr.rule;
  } else if (haveInherited) {
    r.launch = inherited;
    if (const std::string p = launchRuleProblem(r.launch, spec); !p.empty())
      return fail(ReplyOutcome::BadLaunchRule, "the parent's launch rule: " + p, r.source);
  } else {
    return fail(ReplyOutcome::BadLaunchRule, "no ```json block with the launch rule (entry, grid, block, dynamicSmemBytes)",
                r.source);
  }

  if (const std::string p = kernelAbiProblem(r.source, spec, r.launch); !p.empty()) {
    ParsedReply w = fail(ReplyOutcome::WrongSignature, p, r.source);
    w.launch = r.launch;
    w.fromEdits = r.fromEdits;
    w.edits = r.edits;
    return w;
  }
  r.outcome = ReplyOutcome::Ok;
  return r;
}

}  // namespace crucible::llm
