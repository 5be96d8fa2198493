// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/dispatch/slurm/slurm_dispatcher.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "backends/dispatch/local_gpu_dispatcher.h"
#include "core/io/utf8_text.h"

namespace crucible {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

std::chrono::milliseconds ms(double seconds) {
  return std::chrono::milliseconds(static_cast<std::int64_t>(seconds * 1000));
}

std::string shellQuoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string jobSpec(const AttemptPlace& p) { return std::to_string(p.jobId) + "_" + std::to_string(p.taskId); }

std::string batchOf(const AttemptPlace& p) { return fs::path(p.folder).parent_path().string(); }

// The last line the worker wrote to its log, for an error message.
std::string logTail(const std::string& folder) {
  std::ifstream in(fs::path(folder) / "worker.log");
  std::string line, last;
  for (int lines = 0; lines < 100000 && std::getline(in, line); ++lines)
    if (!line.empty()) last = line;
  if (last.size() > 300) last = utf8Prefix(last, 300) + "...";
  return last;
}

}  // namespace

SlurmDispatcher::SlurmDispatcher(SlurmSettings settings, LogFn log)
    : settings_(std::move(settings)),
      log_(std::move(log)),
      commands_(settings_.slurmBinDirectory, settings_.commandTimeoutSeconds),
      ledger_(settings_.maxAttempts) {
  validate(settings_);
  workerExecutable_ =
      settings_.workerExecutable.empty() ? LocalGpuDispatcher::defaultWorkerExecutable() : settings_.workerExecutable;
  // Several engines may share one directory: each dispatcher has its own folder in it.
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  batchRoot_ = (fs::path(settings_.sharedDirectory) /
                ("crucible-" + std::string(host) + "-" + std::to_string(::getpid()) + "-" +
                 std::to_string(Clock::now().time_since_epoch().count() % 1000000)))
                   .string();
  std::error_code ec;
  fs::create_directories(batchRoot_, ec);
  if (ec) throw SlurmError("cannot create the job folder " + batchRoot_ + ": " + ec.message());
  for (int i = 0; i < settings_.concurrentJobs; ++i) evaluators_.push_back(std::make_unique<SlurmEvaluator>(*this));
  submitter_ = std::thread([this] { loop(); });
}

SlurmDispatcher::~SlurmDispatcher() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  ended_.notify_all();
  if (submitter_.joinable()) submitter_.join();
  std::set<std::int64_t> open;
  for (const auto& [dir, b] : batches_)
    if (b.open > 0 && b.jobId > 0) open.insert(b.jobId);
  std::vector<std::string> specs;
  for (auto id : open) specs.push_back(std::to_string(id));
  try {
    commands_.scancel(specs);
  } catch (const std::exception& e) {
    log("warning", std::string("slurm: could not cancel the jobs still running: ") + e.what());
  }
  if (!settings_.keepJobFolders) {
    std::error_code ec;
    fs::remove_all(batchRoot_, ec);
  }
}

std::vector<Evaluator*> SlurmDispatcher::evaluators() {
  std::vector<Evaluator*> out;
  for (auto& e : evaluators_) out.push_back(e.get());
  return out;
}

LedgerCounts SlurmDispatcher::counts() const {
  std::lock_guard lock(mutex_);
  return ledger_.counts();
}

std::optional<Fingerprint> SlurmDispatcher::lastDevice() const {
  std::lock_guard lock(mutex_);
  return lastDevice_;
}

void SlurmDispatcher::log(const std::string& level, const std::string& text) const {
  if (log_) log_(level, text);
}

JobResult SlurmDispatcher::call(JobRequest request) {
  std::unique_lock lock(mutex_);
  if (stopping_) throw SlurmError("the Slurm dispatcher is shutting down");
  if (ledger_.waiting().empty()) firstWaiting_ = Clock::now();
  const Ticket t = ledger_.add(std::move(request));
  woken_ = true;
  wake_.notify_all();
  ended_.wait(lock, [&] { return stopping_ || ledger_.ended(t); });
  if (!ledger_.ended(t)) {
    ledger_.abandon(t, "the Slurm dispatcher is shutting down");
  }
  TicketOutcome o = ledger_.outcome(t);
  ledger_.erase(t);
  if (o.state == TicketState::Done && o.result) {
    lastDevice_ = o.result->device;
    return std::move(*o.result);
  }
  std::string why;
  for (const auto& f : o.failures) why += (why.empty() ? "" : "; ") + f;
  throw SlurmError("slurm: the request was given up after " + std::to_string(o.failures.size()) +
                   " failed attempt(s): " + why);
}

void SlurmDispatcher::loop() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    auto wait = ms(settings_.pollSeconds);
    if (!ledger_.waiting().empty()) {
      const auto due = firstWaiting_ + ms(settings_.batchWindowSeconds);
      wait = std::min(wait, std::chrono::duration_cast<std::chrono::milliseconds>(due - Clock::now()));
      if (wait.count() < 0) wait = std::chrono::milliseconds(0);
    }
    wake_.wait_for(lock, wait, [&] { return stopping_ || woken_; });
    woken_ = false;
    if (stopping_) break;
    try {
      submitWaiting(lock);
      collectResults(lock);
      watchQueue(lock);
    } catch (const std::exception& e) {
      // Nothing here may end the thread: the callers would wait forever.
      log("error", std::string("slurm: ") + e.what());
    }
  }
}

void SlurmDispatcher::submitWaiting(std::unique_lock<std::mutex>& lock) {
  std::vector<Ticket> waiting = ledger_.waiting();
  if (waiting.empty()) return;
  const bool full = static_cast<int>(waiting.size()) >= settings_.concurrentJobs;
  if (!full && Clock::now() < firstWaiting_ + ms(settings_.batchWindowSeconds)) return;
  if (static_cast<int>(waiting.size()) > settings_.maxArraySize) waiting.resize(settings_.maxArraySize);
  std::vector<JobRequest> requests;
  for (Ticket t : waiting) requests.push_back(ledger_.request(t));
  const std::string dir = (fs::path(batchRoot_) / ("batch-" + std::to_string(++batchCount_))).string();

  lock.unlock();
  std::int64_t jobId = 0;
  std::string failure;
  try {
    for (std::size_t i = 0; i < requests.size(); ++i)
      writeJobRequest((fs::path(dir) / std::to_string(i)).string(), requests[i]);
    const std::string script = (fs::path(dir) / "job.sh").string();
    {
      std::ofstream out(script, std::ios::trunc);
      out << "#!/bin/sh\n# Crucible's Slurm dispatcher: array task N answers the job folder N.\nexec";
      out << " " << shellQuoted(workerExecutable_);
      for (const auto& a : settings_.workerArguments) out << " " << shellQuoted(a);
      out << " --job " << shellQuoted(dir) << "/\"$SLURM_ARRAY_TASK_ID\"\n";
      if (!out) throw SlurmError("cannot write " + script);
    }
    std::vector<std::string> args{"--array=0-" + std::to_string(requests.size() - 1),
                                  "--job-name=crucible-eval",
                                  // Requeueing is ours: Slurm rerunning a task could evaluate it twice.
                                  "--no-requeue",
                                  "--chdir=" + dir,
                                  "--output=" + dir + "/%a/worker.log",
                                  "--time=" + settings_.timeLimit};
    if (settings_.gpusPerJob > 0)
      args.push_back("--gres=gpu:" + (settings_.gpuType.empty() ? "" : settings_.gpuType + ":") +
                     std::to_string(settings_.gpusPerJob));
    if (!settings_.partition.empty()) args.push_back("--partition=" + settings_.partition);
    if (!settings_.account.empty()) args.push_back("--account=" + settings_.account);
    args.insert(args.end(), settings_.extraSbatchOptions.begin(), settings_.extraSbatchOptions.end());
    args.push_back(script);
    jobId = commands_.sbatch(args);
  } catch (const std::exception& e) {
    failure = e.what();
  }
  lock.lock();

  if (!failure.empty()) log("error", "slurm: submitting " + std::to_string(requests.size()) + " job(s) failed: " + failure);
  else log("info", "slurm: submitted job array " + std::to_string(jobId) + " of " + std::to_string(requests.size()) + " task(s)");
  batches_[dir] = Batch{jobId, dir, failure.empty() ? requests.size() : 0};
  for (std::size_t i = 0; i < waiting.size(); ++i) {
    if (ledger_.ended(waiting[i])) continue;  // abandoned meanwhile
    const std::size_t attempt = ledger_.submitted(
        waiting[i], AttemptPlace{(fs::path(dir) / std::to_string(i)).string(), jobId, static_cast<int>(i)});
    if (!failure.empty()) recordFailure(AttemptRef{waiting[i], attempt, {}}, "could not be submitted: " + failure);
  }
  // After a failed submission the next try waits a poll, not a batch window.
  if (!failure.empty()) firstWaiting_ = Clock::now() + ms(settings_.pollSeconds);
}

void SlurmDispatcher::attemptEnded(const AttemptPlace& place) {
  auto it = batches_.find(batchOf(place));
  if (it == batches_.end() || it->second.open == 0) return;
  if (--it->second.open == 0 && !settings_.keepJobFolders) {
    // Every task of the array has ended for us: its folders are spent.
    std::error_code ec;
    fs::remove_all(it->second.dir, ec);
  }
}

void SlurmDispatcher::recordFailure(const AttemptRef& a, const std::string& why) {
  const AfterFailure f = ledger_.failed(a.ticket, a.attempt, why);
  if (f == AfterFailure::Ignored) return;
  if (!a.place.folder.empty()) attemptEnded(a.place);
  endSeen_.erase({a.ticket, a.attempt});
  endState_.erase({a.ticket, a.attempt});
  if (f == AfterFailure::Requeued) {
    log("warning", "slurm: " + why + "; requeued");
    if (ledger_.waiting().size() == 1) firstWaiting_ = Clock::now();
  } else if (f == AfterFailure::GaveUp) {
    log("error", "slurm: " + why + "; given up after " + std::to_string(settings_.maxAttempts) + " attempt(s)");
    ended_.notify_all();
  }
}

void SlurmDispatcher::cancel(std::unique_lock<std::mutex>& lock, const std::vector<AttemptRef>& attempts) {
  std::vector<std::string> specs;
  for (const auto& a : attempts) {
    attemptEnded(a.place);
    if (a.place.jobId > 0) specs.push_back(jobSpec(a.place));
  }
  if (specs.empty()) return;
  lock.unlock();
  try {
    commands_.scancel(specs);
  } catch (const std::exception& e) {
    log("warning", std::string("slurm: ") + e.what());
  }
  lock.lock();
}

void SlurmDispatcher::collectResults(std::unique_lock<std::mutex>& lock) {
  const std::vector<AttemptRef> live = ledger_.live();
  if (live.empty()) return;
  struct Seen {
    AttemptRef attempt;
    std::optional<JobResult> result;
    std::string malformed;
  };
  std::vector<Seen> seen;
  lock.unlock();
  for (const auto& a : live) {
    if (a.place.jobId == 0) continue;
    try {
      if (auto r = readJobResult(a.place.folder)) seen.push_back(Seen{a, std::move(r), ""});
    } catch (const JobFolderError& e) {
      seen.push_back(Seen{a, std::nullopt, e.what()});
    }
  }
  lock.lock();
  std::vector<AttemptRef> toCancel;
  for (auto& s : seen) {
    const std::string where = "job " + jobSpec(s.attempt.place);
    if (!s.malformed.empty()) {
      recordFailure(s.attempt, where + " wrote a malformed result: " + s.malformed);
    } else if (s.result->type == WorkerMessage::ErrorReply) {
      // The worker ran but could not answer (no usable GPU on that node, say): not the candidate's doing.
      recordFailure(s.attempt, where + ": the worker reported an error: " + s.result->error);
    } else {
      const AttemptPlace place = s.attempt.place;
      if (ledger_.deliver(s.attempt.ticket, s.attempt.attempt, std::move(*s.result), &toCancel)) {
        attemptEnded(place);
        endSeen_.erase({s.attempt.ticket, s.attempt.attempt});
        ended_.notify_all();
      }
    }
  }
  cancel(lock, toCancel);
}

std::string SlurmDispatcher::failureDetail(const AttemptRef& a, const std::string& what) const {
  std::string detail = "job " + jobSpec(a.place) + ": " + what;
  try {
    const auto records = commands_.showJob(jobSpec(a.place));
    if (!records.empty()) {
      const auto& r = records.front();
      if (auto it = r.find("ExitCode"); it != r.end() && it->second != "0:0") detail += ", exit code " + it->second;
      if (auto it = r.find("NodeList"); it != r.end() && !it->second.empty() && it->second != "(null)")
        detail += ", on " + it->second;
    }
  } catch (const std::exception&) {
    // The detail is a courtesy; the failure stands without it.
  }
  const std::string tail = logTail(a.place.folder);
  if (!tail.empty()) detail += "; its log ends: " + tail;
  return detail;
}

void SlurmDispatcher::watchQueue(std::unique_lock<std::mutex>& lock) {
  std::vector<AttemptRef> live = ledger_.live();
  std::set<std::int64_t> jobIds;
  for (const auto& a : live)
    if (a.place.jobId > 0) jobIds.insert(a.place.jobId);
  if (jobIds.empty()) return;

  lock.unlock();
  std::vector<QueueEntry> entries;
  std::string queueError;
  try {
    entries = commands_.squeue(std::vector<std::int64_t>(jobIds.begin(), jobIds.end()));
  } catch (const std::exception& e) {
    queueError = e.what();
  }
  lock.lock();

  const auto now = Clock::now();
  if (!queueError.empty()) {
    // An unreachable controller decides nothing about the jobs: wait, but not forever.
    if (!queueFailingSince_) queueFailingSince_ = now;
    const double failingFor = std::chrono::duration<double>(now - *queueFailingSince_).count();
    log("warning", "slurm: the queue cannot be read (" + std::to_string(static_cast<int>(failingFor)) + " s): " + queueError);
    if (failingFor > std::max(600.0, 10 * settings_.commandTimeoutSeconds)) {
      std::vector<AttemptRef> toCancel;
      for (Ticket t : ledger_.active())
        ledger_.abandon(t, "the Slurm queue could not be read for " + std::to_string(static_cast<int>(failingFor)) +
                               " s: " + queueError, &toCancel);
      ended_.notify_all();
      cancel(lock, toCancel);
    }
    return;
  }
  queueFailingSince_.reset();

  std::map<std::pair<std::int64_t, int>, const QueueEntry*> byTask;
  for (const auto& e : entries) byTask[{e.jobId, e.taskId}] = &e;
  std::vector<std::pair<AttemptRef, std::string>> overdue;
  std::vector<AttemptRef> held;
  for (const auto& a : ledger_.live()) {
    if (a.place.jobId == 0) continue;
    const AttemptKey key{a.ticket, a.attempt};
    auto it = byTask.find({a.place.jobId, a.place.taskId});
    if (it != byTask.end() && phaseOf(it->second->state) != QueuePhase::Ended) {
      endSeen_.erase(key);
      endState_.erase(key);
      continue;
    }
    const std::string what = it == byTask.end() ? describeEnd("", "") : describeEnd(it->second->state, it->second->reason);
    if (it != byTask.end() && (it->second->state == "REQUEUE_HOLD" || it->second->state == "SPECIAL_EXIT"))
      held.push_back(a);  // held by Slurm, would wait forever: cancel it, requeue ourselves
    auto [seenIt, first] = endSeen_.try_emplace(key, now);
    endState_[key] = what;
    if (!first && now - seenIt->second >= ms(settings_.resultGraceSeconds)) overdue.emplace_back(a, what);
  }
  if (!held.empty()) {
    std::vector<std::string> specs;
    for (const auto& a : held) specs.push_back(jobSpec(a.place));
    lock.unlock();
    try {
      commands_.scancel(specs);
    } catch (const std::exception& e) {
      log("warning", std::string("slurm: ") + e.what());
    }
    lock.lock();
  }
  if (overdue.empty()) return;

  // One last look at the folders: a result that landed since counts.
  lock.unlock();
  std::vector<std::pair<AttemptRef, std::string>> failed;
  // The exit code and log of a failure cost a scontrol call each: a few per
  // poll, so a node that takes a thousand tasks down does not stall the loop.
  constexpr std::size_t kDetailedPerPoll = 8;
  for (const auto& [a, what] : overdue) {
    bool hasResult = false;
    try {
      hasResult = readJobResult(a.place.folder).has_value();
    } catch (const JobFolderError&) {
      hasResult = true;  // collectResults reports it
    }
    if (!hasResult)
      failed.emplace_back(a, failed.size() < kDetailedPerPoll ? failureDetail(a, what)
                                                              : "job " + jobSpec(a.place) + ": " + what);
  }
  lock.lock();
  for (const auto& [a, why] : failed) recordFailure(a, why);
  if (!failed.empty()) {
    woken_ = true;  // requeued requests go out without waiting a poll
  }
}

// ------------------------------------------------------------------ evaluator

JobResult SlurmEvaluator::call(WorkerMessage type, std::string payload, WorkerMessage expected) const {
  JobResult r = dispatcher_.call(JobRequest{type, std::move(payload)});
  if (r.type != expected)
    throw SlurmError(std::string("slurm: the worker answered a ") + toString(type) + " with a " + toString(r.type));
  std::lock_guard lock(mutex_);
  last_ = r.device;
  return r;
}

Fingerprint SlurmEvaluator::device() const {
  {
    std::lock_guard lock(mutex_);
    if (last_) return *last_;
  }
  // Another evaluator's result tells as much: no job just to ask.
  if (auto known = dispatcher_.lastDevice()) return *known;
  return call(WorkerMessage::DeviceRequest, "", WorkerMessage::DeviceReply).device;
}

Evaluation SlurmEvaluator::evaluate(const EvaluationRequest& request) {
  const JobResult r = call(WorkerMessage::EvaluateRequest, encodeEvaluationRequest(request), WorkerMessage::EvaluateReply);
  try {
    Evaluation e = decodeEvaluation(r.payload);
    // The device of the node that ran this job, which need not be the one
    // device() reported before: array tasks land on any node of the partition.
    recordTimingDevice(e, r.device);
    return e;
  } catch (const MessageError& e) {
    throw SlurmError(std::string("slurm: the worker's evaluation does not decode: ") + e.what());
  }
}

ProfileResult SlurmEvaluator::profile(const Task& task, const KernelBinary& kernel) {
  const JobResult r = call(WorkerMessage::ProfileRequest, encodeProfileRequest(task, kernel), WorkerMessage::ProfileReply);
  try {
    return decodeProfileResult(r.payload);
  } catch (const MessageError& e) {
    throw SlurmError(std::string("slurm: the worker's profile does not decode: ") + e.what());
  }
}

std::vector<Ceiling> SlurmEvaluator::measureCeilings() {
  const JobResult r = call(WorkerMessage::CeilingsRequest, "", WorkerMessage::CeilingsReply);
  try {
    return decodeCeilings(r.payload);
  } catch (const MessageError& e) {
    throw SlurmError(std::string("slurm: the worker's ceilings do not decode: ") + e.what());
  }
}

std::optional<Fingerprint> SlurmEvaluator::lastResultDevice() const {
  std::lock_guard lock(mutex_);
  return last_;
}

}  // namespace crucible
