// SPDX-License-Identifier: GPL-3.0-or-later
// Turns a model's reply into a kernel: either a whole kernel (a fenced
// ```cuda / ```cpp / ```c++ block plus a ```json block with the launch rule)
// or SEARCH/REPLACE edits against the parent's source (which keep the
// parent's launch rule unless the reply gives a new one). Every way a reply
// can fail has its own outcome and a reason that says what to fix. Work is
// bounded: replies over kMaxReplyBytes are refused unread.
#pragma once
#include <cstddef>
#include <string>
#include "core/model/candidate.h"
#include "core/task/task_spec.h"

namespace crucible::llm {

enum class ReplyOutcome {
  Ok,
  NoCode,          // no code block and no edits
  Truncated,       // cut off: finish reason "length", an unterminated fence or edit block, unbalanced brackets
  EditNotApplied,  // SEARCH/REPLACE edits malformed, without a parent, or not matching it exactly once
  WrongSignature,  // the entry's parameters differ from the task's kernel ABI
  BadLaunchRule,   // no launch rule, not JSON, unknown axis, beyond CUDA limits
  TooLarge,        // the reply exceeds kMaxReplyBytes
};

// Stable words, used as statusDetail prefixes ("no-code: ..."): the GUI and
// the CLI may match on them.
const char* replyOutcomeName(ReplyOutcome o);  // "ok", "no-code", "truncated", "edit-not-applied",
                                               // "wrong-signature", "bad-launch-rule", "too-large"

constexpr std::size_t kMaxReplyBytes = std::size_t{512} << 10;

struct ReplyInput {
  std::string text;
  std::string stopReason;        // the client's normalised reason; "length" = cut at max tokens
  const TaskSpec* spec = nullptr;
  const Candidate* parent = nullptr;  // for SEARCH/REPLACE edits
};

struct ParsedReply {
  ReplyOutcome outcome = ReplyOutcome::NoCode;
  std::string reason;   // empty when ok
  std::string source;   // the kernel (also set for failures past extraction, for inspection)
  LaunchRule launch;
  bool fromEdits = false;
  int edits = 0;        // edits applied
  bool ok() const { return outcome == ReplyOutcome::Ok; }
  // "<outcome>: <reason>" for Candidate::statusDetail.
  std::string detail() const;
};

ParsedReply parseKernelReply(const ReplyInput& in);

}  // namespace crucible::llm
