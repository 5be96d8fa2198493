// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/dispatch/worker_evaluator.h"
#include <algorithm>
#include <cmath>
#include "core/task/task_spec.h"

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

// Bytes the worker holds and moves per seed: every input and output in its
// dtype, and each output again as the oracle's doubles.
double taskDataBytes(const TaskSpec& spec) {
  double bytes = 0;
  for (const TensorSpec& t : spec.inputs) bytes += static_cast<double>(elementCount(spec, t)) * sizeOf(t.dtype);
  for (const TensorSpec& t : spec.outputs)
    bytes += static_cast<double>(elementCount(spec, t)) * (sizeOf(t.dtype) + sizeof(double));
  return bytes;
}

}  // namespace

std::chrono::milliseconds evaluateDeadline(const EvaluationRequest& r, const WorkerEvaluatorOptions& o) {
  const std::chrono::milliseconds base = r.extended ? o.extendedEvaluateTimeout : o.evaluateTimeout;
  if (!r.task || o.perSeedPerGiB.count() <= 0) return base;
  double gib = 0;
  try {
    gib = taskDataBytes(parseTaskSpec(r.task->specJson)) / double(1ull << 30);
  } catch (const std::exception&) {
    return base;  // not a task the worker can run; it says so without needing time
  }
  std::size_t seeds = r.seeds.empty() ? static_cast<std::size_t>(std::max(o.assumedDefaultSeeds, 0)) : r.seeds.size();
  if (r.extended) seeds += static_cast<std::size_t>(std::max(o.assumedExtendedExtraSeeds, 0));
  if (r.time) seeds += 1;  // the inputs are drawn and uploaded once more for timing
  const double extraMs = static_cast<double>(o.perSeedPerGiB.count()) * gib * static_cast<double>(seeds);
  return base + std::chrono::milliseconds(static_cast<std::int64_t>(std::ceil(extraMs)));
}

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
  const auto timeout = evaluateDeadline(r, options_);
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
  // The worker records its device on a timing; one whose device could not
  // say is still the GPU this worker process announced in its hello.
  recordTimingDevice(e, process_.hello().device);
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
