// SPDX-License-Identifier: GPL-3.0-or-later
#include <stdexcept>
#include <string>

#include "backends/proposers/llm/architecture_plan.h"
#include "backends/proposers/llm/clients.h"
#include "backends/proposers/llm/kernel_abi_check.h"
#include "backends/proposers/llm/kernel_descriptor.h"
#include "backends/proposers/llm/launch_rule_reply.h"
#include "backends/proposers/llm/reply_parser.h"
#include "core/io/utf8_text.h"
#include "tests/backends/llm/llm_test_task.h"
#include "tests/fuzz/fuzz_entries.h"

namespace crucible::fuzz {
namespace {

// The clients' reading of a response body, which the transport calls with
// whatever the server sent; nothing here opens a connection.
template <class Client>
class BodyReader : public Client {
public:
  BodyReader() : Client(llm::ClientSettings{}) {}
  using Client::parse;
};

// The parent a SEARCH/REPLACE reply edits: the tests' warp-per-row kernel.
Candidate parentKernel(const TaskSpec& spec) {
  Candidate parent;
  parent.source = llm::testing::kWarpPerRowKernel;
  const llm::LaunchRuleParse launch = llm::parseLaunchRuleReply(llm::testing::kWarpPerRowLaunch, spec, spec.entry);
  if (!launch.ok) throw std::logic_error("model_reply: the parent's launch rule: " + launch.problem);
  parent.launch = launch.rule;
  return parent;
}

void require(bool holds, const std::string& what) {
  if (!holds) throw FuzzPropertyError(what);
}

// What the proposer relies on in a reply the parser accepts: the task's kernel
// signature and a launch rule inside the task's names and CUDA's limits (the
// worker is never handed a launch it refuses); and in one it refuses, a reason.
void checkKernelReply(const llm::ParsedReply& r, const TaskSpec& spec, const std::string& text) {
  const std::size_t textBytes = text.size();
  const std::string detail = r.detail();
  // Stored with the candidate and written as JSON: UTF-8 in, UTF-8 out.
  if (isUtf8(text)) require(isUtf8(detail), "a detail that is not UTF-8: " + detail);
  require(detail.rfind(llm::replyOutcomeName(r.outcome), 0) == 0, "a detail without its outcome: " + detail);
  if (textBytes > llm::kMaxReplyBytes) require(r.outcome == llm::ReplyOutcome::TooLarge, "an oversized reply read: " + detail);
  if (!r.ok()) {
    require(!r.reason.empty(), std::string("a refusal without a reason: ") + llm::replyOutcomeName(r.outcome));
    return;
  }
  require(r.reason.empty(), "an accepted reply with a reason: " + r.reason);
  require(!r.source.empty(), "an accepted reply without source");
  const std::string abi = llm::kernelAbiProblem(r.source, spec, r.launch);
  require(abi.empty(), "an accepted kernel off the ABI: " + abi);
  // The task's names, CUDA's limits at every SM count the rule could meet, encodable tensor maps.
  const std::string launch = llm::launchRuleProblem(r.launch, spec);
  require(launch.empty(), "an accepted launch rule with a problem: " + launch);
  // Its place in the archive is read from the source alone before it compiles.
  const auto descriptor = llm::describeKernel(r.source, std::nullopt);
  require(descriptor.count("memory") && descriptor.count("tensor_core"), "a descriptor without its dimensions");
}

}  // namespace

void modelReplyEntry(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return;
  // The first byte picks what the rest is: the low two bits, an OpenAI-compatible
  // or an Anthropic response body, or the reply's text itself (twice as likely:
  // the parser is where most of the code is); bit 2, a parent to edit; bit 3, a
  // reply cut at the token limit.
  const std::uint8_t mode = data[0];
  const std::string bytes(reinterpret_cast<const char*>(data + 1), size - 1);
  llm::ChatReply reply;
  try {
    switch (mode & 3) {
      case 0: reply = BodyReader<llm::OpenAiChatClient>().parse(bytes); break;
      case 1: reply = BodyReader<llm::AnthropicChatClient>().parse(bytes); break;
      default: reply.text = bytes; reply.stopReason = (mode & 8) ? "length" : "stop";
    }
  } catch (const llm::ChatError& e) {
    // The product's refusal of a body it cannot read; any other kind here is a finding.
    if (e.kind() != llm::ChatErrorKind::MalformedReply)
      throw FuzzPropertyError(std::string("a body refused as ") + llm::chatErrorKindName(e.kind()) + ": " + e.what());
    return;
  }

  // The first turn: an architecture and its plan, within their bounds.
  const llm::PlanParse plan = llm::parseArchitecturePlan(reply.text);
  if (plan.ok) {
    require(!plan.plan.name.empty() && plan.plan.name.size() <= 80 && plan.plan.name.find('\n') == std::string::npos,
            "a plan name outside its bounds: " + plan.plan.name.substr(0, 100));
    require(plan.plan.plan.size() <= 4000, "a plan over 4000 bytes");
    // Cut between characters: the plan goes into the next turn's JSON and the review queue.
    if (isUtf8(reply.text)) require(isUtf8(plan.plan.name) && isUtf8(plan.plan.plan), "a plan cut inside a character");
    (void)llm::slugOf(plan.plan.name);
  } else {
    require(!plan.problem.empty(), "a plan refused without a reason");
  }

  // The next turns: a kernel, or edits of the parent.
  static const TaskSpec spec = llm::testing::rowAbsMaxSpec();
  static const Candidate parent = parentKernel(spec);
  llm::ReplyInput in;
  in.text = reply.text;
  in.stopReason = reply.stopReason;
  in.spec = &spec;
  in.parent = (mode & 4) ? &parent : nullptr;
  checkKernelReply(llm::parseKernelReply(in), spec, in.text);
  (void)llm::normalisedSource(reply.text);
}

}  // namespace crucible::fuzz
