// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/dispatch/worker_evaluator.h"

namespace crucible {
namespace {

// A reply of the wrong kind means the two sides disagree on the protocol.
void expectReply(const WorkerCall& call, WorkerMessage expected) {
  if (call.replyType != expected)
    throw WorkerError(std::string("worker answered with '") + toString(call.replyType) + "' instead of '" +
                      toString(expected) + "'");
}

template <typename Decode>
auto decodeReply(const WorkerCall& call, Decode decode) {
  try {
    return decode(call.payload);
  } catch (const MessageError& e) {
    throw WorkerError(std::string("worker sent a malformed '") + toString(call.replyType) + "': " + e.what());
  }
}

}  // namespace

WorkerEvaluator::WorkerEvaluator(WorkerProcessOptions process, WorkerEvaluatorOptions options)
    : options_(options), process_(std::move(process)) {}

WorkerCall WorkerEvaluator::request(WorkerMessage type, const std::string& payload,
                                    std::chrono::milliseconds timeout) const {
  std::lock_guard lock(mutex_);
  return process_.call(type, payload, timeout);
}

Fingerprint WorkerEvaluator::device() const {
  std::lock_guard lock(mutex_);
  return process_.start().device;
}

Evaluation WorkerEvaluator::evaluate(const EvaluationRequest& r) {
  if (!r.task) throw std::invalid_argument("WorkerEvaluator::evaluate: the request has no task");
  const auto timeout = r.extended ? options_.extendedEvaluateTimeout : options_.evaluateTimeout;
  std::lock_guard lock(mutex_);
  const WorkerCall call = process_.call(WorkerMessage::EvaluateRequest, encodeEvaluationRequest(r), timeout);
  Evaluation e;
  switch (call.outcome) {
    case WorkerCall::Outcome::TimedOut:
      e.status = CandidateStatus::TimedOut;
      e.detail = call.detail;
      return e;
    case WorkerCall::Outcome::Died:
      e.status = CandidateStatus::Faulted;
      e.detail = call.detail;
      return e;
    case WorkerCall::Outcome::Replied:
      break;
  }
  if (call.replyType == WorkerMessage::ErrorReply) {
    e.status = CandidateStatus::Faulted;
    e.detail = "the worker could not evaluate: " + decodeReply(call, decodeError);
    return e;
  }
  expectReply(call, WorkerMessage::EvaluateReply);
  e = decodeReply(call, decodeEvaluation);
  // A kernel that faulted or hung leaves its CUDA context unusable: the next
  // candidate gets a fresh worker rather than the remains of this one.
  if (e.status == CandidateStatus::Faulted || e.status == CandidateStatus::TimedOut) process_.stop();
  return e;
}

ProfileResult WorkerEvaluator::profile(const Task& task, const KernelBinary& kernel) {
  const WorkerCall call =
      request(WorkerMessage::ProfileRequest, encodeProfileRequest(task, kernel), options_.profileTimeout);
  ProfileResult p;
  if (call.outcome != WorkerCall::Outcome::Replied) {
    p.detail = "profiling failed: " + call.detail;
    return p;
  }
  if (call.replyType == WorkerMessage::ErrorReply) {
    p.detail = "profiling failed: " + decodeReply(call, decodeError);
    return p;
  }
  expectReply(call, WorkerMessage::ProfileReply);
  return decodeReply(call, decodeProfileResult);
}

std::vector<Ceiling> WorkerEvaluator::measureCeilings() {
  const WorkerCall call = request(WorkerMessage::CeilingsRequest, {}, options_.ceilingsTimeout);
  if (call.outcome != WorkerCall::Outcome::Replied) throw WorkerError("measuring ceilings failed: " + call.detail);
  if (call.replyType == WorkerMessage::ErrorReply)
    throw WorkerError("measuring ceilings failed: " + decodeReply(call, decodeError));
  expectReply(call, WorkerMessage::CeilingsReply);
  return decodeReply(call, decodeCeilings);
}

int WorkerEvaluator::workerStarts() const {
  std::lock_guard lock(mutex_);
  return process_.starts();
}

}  // namespace crucible
