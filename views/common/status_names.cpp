// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/common/status_names.h"

namespace crucible::views {

// The English names are core's tokens, so a view in English reads what the
// CLI prints and what the project stores.
QString StatusNames::of(CandidateStatus s) {
  switch (s) {
    case CandidateStatus::Proposed: return tr("proposed");
    case CandidateStatus::AwaitingReview: return tr("awaiting-review");
    case CandidateStatus::Rejected: return tr("rejected");
    case CandidateStatus::Compiled: return tr("compiled");
    case CandidateStatus::CompileFailed: return tr("compile-failed");
    case CandidateStatus::Invalid: return tr("invalid");
    case CandidateStatus::Faulted: return tr("faulted");
    case CandidateStatus::TimedOut: return tr("timed-out");
    case CandidateStatus::ResourceError: return tr("resource-error");
    case CandidateStatus::Valid: return tr("valid");
    case CandidateStatus::Reference: return tr("reference");
  }
  return QString::fromLatin1(toString(s));
}

QString StatusNames::of(RunStatus s) {
  switch (s) {
    case RunStatus::Created: return tr("created", "run status");
    case RunStatus::Running: return tr("running", "run status");
    case RunStatus::Paused: return tr("paused", "run status");
    case RunStatus::Stopped: return tr("stopped", "run status");
    case RunStatus::Finished: return tr("finished", "run status");
    case RunStatus::Failed: return tr("failed", "run status");
  }
  return QString::fromLatin1(toString(s));
}

QString StatusNames::of(KnowledgeStatus s) {
  switch (s) {
    case KnowledgeStatus::Hypothesis: return tr("hypothesis", "knowledge status");
    case KnowledgeStatus::Validated: return tr("validated", "knowledge status");
    case KnowledgeStatus::Refuted: return tr("refuted", "knowledge status");
  }
  return QString::fromLatin1(toString(s));
}

}  // namespace crucible::views
