// SPDX-License-Identifier: GPL-3.0-or-later
// The requeue bookkeeping of the Slurm dispatcher, with no I/O so it can be
// tested alone: every request (a ticket) waits for submission, runs as one or
// more attempts (array tasks), and ends exactly once, with the first result
// any of its attempts delivers or, after maxAttempts failed attempts, given
// up with every attempt's reason. A result for a ticket already ended is a
// late duplicate: counted and dropped, never delivered.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "backends/dispatch/slurm/job_folder.h"

namespace crucible {

using Ticket = std::uint64_t;

// Where one attempt runs.
struct AttemptPlace {
  std::string folder;        // its job folder
  std::int64_t jobId = 0;    // the array's job id
  int taskId = -1;           // its array task
};

struct AttemptRef {
  Ticket ticket = 0;
  std::size_t attempt = 0;   // index into the ticket's attempts
  AttemptPlace place;
};

enum class TicketState { Waiting, Submitted, Done, GaveUp };

struct TicketOutcome {
  TicketState state = TicketState::Waiting;
  std::optional<JobResult> result;     // Done
  std::vector<std::string> failures;   // one line per failed attempt
};

enum class AfterFailure {
  Requeued,   // waiting for another attempt
  GaveUp,     // maxAttempts attempts failed: the ticket ended without a result
  Waiting,    // another attempt of the ticket is still live
  Ignored,    // the attempt had already ended, or the ticket had
};

struct LedgerCounts {
  std::size_t submittedAttempts = 0;
  std::size_t resultsTaken = 0;
  std::size_t duplicatesDropped = 0;
  std::size_t failedAttempts = 0;
  std::size_t requeues = 0;
  std::size_t givenUp = 0;
};

class JobLedger {
public:
  explicit JobLedger(int maxAttempts);

  Ticket add(JobRequest request);
  const JobRequest& request(Ticket t) const;
  // Tickets waiting for (re)submission, oldest first.
  std::vector<Ticket> waiting() const;
  // Returns the attempt's index.
  std::size_t submitted(Ticket t, AttemptPlace place);
  // Attempts submitted and not ended, of tickets not ended.
  std::vector<AttemptRef> live() const;

  // A result from an attempt. True if it was taken (the ticket is Done);
  // false for a late duplicate or an unknown ticket (dropped). `toCancel`
  // receives the ticket's other live attempts, which are ended now.
  bool deliver(Ticket t, std::size_t attempt, JobResult result, std::vector<AttemptRef>* toCancel = nullptr);
  // An attempt that ended without a result.
  AfterFailure failed(Ticket t, std::size_t attempt, const std::string& why);
  // Ends a ticket without a result (the dispatcher is shutting down, or the
  // queue has been unreachable too long); its live attempts go to `toCancel`.
  void abandon(Ticket t, const std::string& why, std::vector<AttemptRef>* toCancel = nullptr);

  bool ended(Ticket t) const;
  TicketOutcome outcome(Ticket t) const;
  // Forgets an ended ticket (its caller has its outcome); later results for it are dropped.
  void erase(Ticket t);
  bool empty() const { return tickets_.empty(); }
  std::vector<Ticket> active() const;
  const LedgerCounts& counts() const { return counts_; }

private:
  struct Attempt {
    AttemptPlace place;
    bool ended = false;
  };
  struct Entry {
    JobRequest request;
    TicketState state = TicketState::Waiting;
    std::vector<Attempt> attempts;
    std::vector<std::string> failures;
    std::optional<JobResult> result;
  };
  Entry* find(Ticket t);
  void endLive(Ticket t, Entry& e, std::vector<AttemptRef>* toCancel);

  int maxAttempts_;
  Ticket next_ = 1;
  std::map<Ticket, Entry> tickets_;
  LedgerCounts counts_;
};

}  // namespace crucible
