// SPDX-License-Identifier: GPL-3.0-or-later
// Names of the domain's enums as stored in the project file and shown to users.
#include <string>
#include "core/model/candidate.h"
#include "core/model/enum_names.h"
#include "core/model/knowledge.h"
#include "core/model/run.h"

namespace crucible {
namespace {

constexpr EnumNames<RunStatus, 6> kRun{{
    {RunStatus::Created, "created"}, {RunStatus::Running, "running"}, {RunStatus::Paused, "paused"},
    {RunStatus::Stopped, "stopped"}, {RunStatus::Finished, "finished"}, {RunStatus::Failed, "failed"}}};

constexpr EnumNames<CandidateStatus, 11> kCandidate{{
    {CandidateStatus::Proposed, "proposed"}, {CandidateStatus::AwaitingReview, "awaiting-review"},
    {CandidateStatus::Rejected, "rejected"}, {CandidateStatus::Compiled, "compiled"},
    {CandidateStatus::CompileFailed, "compile-failed"}, {CandidateStatus::Invalid, "invalid"},
    {CandidateStatus::Faulted, "faulted"}, {CandidateStatus::TimedOut, "timed-out"},
    {CandidateStatus::ResourceError, "resource-error"}, {CandidateStatus::Valid, "valid"},
    {CandidateStatus::Reference, "reference"}}};

constexpr EnumNames<KnowledgeStatus, 3> kKnowledge{{
    {KnowledgeStatus::Hypothesis, "hypothesis"}, {KnowledgeStatus::Validated, "validated"},
    {KnowledgeStatus::Refuted, "refuted"}}};
}  // namespace

const char* toString(RunStatus s) { return nameOf(kRun, s); }
RunStatus runStatusFromString(const std::string& s) { return parseName(kRun, s, "run status"); }
const char* toString(CandidateStatus s) { return nameOf(kCandidate, s); }
CandidateStatus candidateStatusFromString(const std::string& s) {
  return parseName(kCandidate, s, "candidate status");
}
const char* toString(KnowledgeStatus s) { return nameOf(kKnowledge, s); }
KnowledgeStatus knowledgeStatusFromString(const std::string& s) {
  return parseName(kKnowledge, s, "knowledge status");
}

}  // namespace crucible
