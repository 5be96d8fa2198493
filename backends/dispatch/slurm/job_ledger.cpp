// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/dispatch/slurm/job_ledger.h"

#include <stdexcept>

namespace crucible {

JobLedger::JobLedger(int maxAttempts) : maxAttempts_(maxAttempts < 1 ? 1 : maxAttempts) {}

JobLedger::Entry* JobLedger::find(Ticket t) {
  auto it = tickets_.find(t);
  return it == tickets_.end() ? nullptr : &it->second;
}

Ticket JobLedger::add(JobRequest request) {
  const Ticket t = next_++;
  tickets_[t].request = std::move(request);
  return t;
}

const JobRequest& JobLedger::request(Ticket t) const {
  auto it = tickets_.find(t);
  if (it == tickets_.end()) throw std::logic_error("job ledger: unknown ticket " + std::to_string(t));
  return it->second.request;
}

std::vector<Ticket> JobLedger::waiting() const {
  std::vector<Ticket> out;
  for (const auto& [t, e] : tickets_)
    if (e.state == TicketState::Waiting) out.push_back(t);
  return out;
}

std::size_t JobLedger::submitted(Ticket t, AttemptPlace place) {
  Entry* e = find(t);
  if (!e || e->state != TicketState::Waiting)
    throw std::logic_error("job ledger: ticket " + std::to_string(t) + " is not waiting for submission");
  e->attempts.push_back(Attempt{std::move(place), false});
  e->state = TicketState::Submitted;
  ++counts_.submittedAttempts;
  return e->attempts.size() - 1;
}

std::vector<AttemptRef> JobLedger::live() const {
  std::vector<AttemptRef> out;
  for (const auto& [t, e] : tickets_) {
    if (e.state == TicketState::Done || e.state == TicketState::GaveUp) continue;
    for (std::size_t i = 0; i < e.attempts.size(); ++i)
      if (!e.attempts[i].ended) out.push_back(AttemptRef{t, i, e.attempts[i].place});
  }
  return out;
}

void JobLedger::endLive(Ticket t, Entry& e, std::vector<AttemptRef>* toCancel) {
  for (std::size_t i = 0; i < e.attempts.size(); ++i) {
    if (e.attempts[i].ended) continue;
    e.attempts[i].ended = true;
    if (toCancel) toCancel->push_back(AttemptRef{t, i, e.attempts[i].place});
  }
}

bool JobLedger::deliver(Ticket t, std::size_t attempt, JobResult result, std::vector<AttemptRef>* toCancel) {
  Entry* e = find(t);
  if (!e || e->state == TicketState::Done || e->state == TicketState::GaveUp || attempt >= e->attempts.size()) {
    ++counts_.duplicatesDropped;
    return false;
  }
  e->attempts[attempt].ended = true;
  endLive(t, *e, toCancel);
  e->result = std::move(result);
  e->state = TicketState::Done;
  ++counts_.resultsTaken;
  return true;
}

AfterFailure JobLedger::failed(Ticket t, std::size_t attempt, const std::string& why) {
  Entry* e = find(t);
  if (!e || e->state == TicketState::Done || e->state == TicketState::GaveUp || attempt >= e->attempts.size() ||
      e->attempts[attempt].ended)
    return AfterFailure::Ignored;
  Attempt& a = e->attempts[attempt];
  a.ended = true;
  ++counts_.failedAttempts;
  e->failures.push_back("attempt " + std::to_string(attempt + 1) + " (job " + std::to_string(a.place.jobId) + "_" +
                        std::to_string(a.place.taskId) + "): " + why);
  for (const auto& other : e->attempts)
    if (!other.ended) return AfterFailure::Waiting;
  if (static_cast<int>(e->failures.size()) < maxAttempts_) {
    e->state = TicketState::Waiting;
    ++counts_.requeues;
    return AfterFailure::Requeued;
  }
  e->state = TicketState::GaveUp;
  ++counts_.givenUp;
  return AfterFailure::GaveUp;
}

void JobLedger::abandon(Ticket t, const std::string& why, std::vector<AttemptRef>* toCancel) {
  Entry* e = find(t);
  if (!e || e->state == TicketState::Done || e->state == TicketState::GaveUp) return;
  endLive(t, *e, toCancel);
  e->failures.push_back(why);
  e->state = TicketState::GaveUp;
  ++counts_.givenUp;
}

bool JobLedger::ended(Ticket t) const {
  auto it = tickets_.find(t);
  return it == tickets_.end() || it->second.state == TicketState::Done || it->second.state == TicketState::GaveUp;
}

TicketOutcome JobLedger::outcome(Ticket t) const {
  auto it = tickets_.find(t);
  if (it == tickets_.end()) throw std::logic_error("job ledger: unknown ticket " + std::to_string(t));
  return TicketOutcome{it->second.state, it->second.result, it->second.failures};
}

void JobLedger::erase(Ticket t) { tickets_.erase(t); }

std::vector<Ticket> JobLedger::active() const {
  std::vector<Ticket> out;
  for (const auto& [t, e] : tickets_)
    if (e.state == TicketState::Waiting || e.state == TicketState::Submitted) out.push_back(t);
  return out;
}

}  // namespace crucible
