// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/dispatch/slurm/slurm_queue.h"

#include <charconv>
#include <set>
#include <sstream>

namespace crucible {
namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

std::optional<std::int64_t> number(const std::string& s) {
  std::int64_t v = 0;
  const auto* end = s.data() + s.size();
  const auto [p, ec] = std::from_chars(s.data(), end, v);
  if (s.empty() || ec != std::errc() || p != end || v < 0) return std::nullopt;
  return v;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(s);
  while (std::getline(in, part, sep)) parts.push_back(part);
  if (!s.empty() && s.back() == sep) parts.push_back("");
  return parts;
}

// "5", "3-7", "3-7%2", "1,4-5": the task ids of a squeue task field (bounded).
std::vector<int> taskIds(const std::string& field, const std::string& line) {
  std::vector<int> ids;
  std::string list = field;
  if (const auto pct = list.find('%'); pct != std::string::npos) list.resize(pct);
  if (!list.empty() && list.front() == '[' && list.back() == ']') list = list.substr(1, list.size() - 2);
  for (const auto& range : split(list, ',')) {
    const auto dash = range.find('-');
    const auto lo = number(dash == std::string::npos ? range : range.substr(0, dash));
    const auto hi = number(dash == std::string::npos ? range : range.substr(dash + 1));
    if (!lo || !hi || *hi < *lo || *hi > 10000000)
      throw SlurmOutputError("squeue printed an array task '" + field + "' that is not a task id: " + line);
    if (ids.size() + static_cast<std::size_t>(*hi - *lo) > 1000000)
      throw SlurmOutputError("squeue printed more array tasks than any array holds: " + line);
    for (auto t = *lo; t <= *hi; ++t) ids.push_back(static_cast<int>(t));
  }
  return ids;
}

}  // namespace

std::vector<QueueEntry> parseSqueue(const std::string& text) {
  std::vector<QueueEntry> entries;
  std::istringstream in(text);
  std::string raw;
  while (std::getline(in, raw)) {
    const std::string line = trim(raw);
    if (line.empty()) continue;
    const auto fields = split(line, '|');
    if (fields.size() != 4)
      throw SlurmOutputError("squeue printed a line that is not 'job|task|state|reason': " + line);
    const auto job = number(trim(fields[0]));
    if (!job) throw SlurmOutputError("squeue printed a job id '" + fields[0] + "' that is not a number: " + line);
    const std::string task = trim(fields[1]);
    const std::string state = trim(fields[2]);
    if (state.empty()) throw SlurmOutputError("squeue printed no job state: " + line);
    std::vector<int> tasks = (task == "N/A" || task.empty()) ? std::vector<int>{-1} : taskIds(task, line);
    for (int t : tasks) entries.push_back(QueueEntry{*job, t, state, trim(fields[3])});
  }
  return entries;
}

std::int64_t parseSbatchJobId(const std::string& text) {
  // sbatch may print warnings before the id; the id is the last line.
  std::istringstream in(text);
  std::string line, last;
  while (std::getline(in, line))
    if (!trim(line).empty()) last = trim(line);
  const std::string id = last.substr(0, last.find(';'));
  const auto n = number(id);
  if (!n || *n == 0) throw SlurmOutputError("sbatch did not print a job id: '" + trim(text) + "'");
  return *n;
}

std::vector<std::map<std::string, std::string>> parseScontrolRecords(const std::string& text) {
  std::vector<std::map<std::string, std::string>> records;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (trim(line).empty()) continue;
    std::map<std::string, std::string> record;
    std::string lastKey;
    std::istringstream words(line);
    std::string word;
    while (words >> word) {
      const auto eq = word.find('=');
      if (eq == std::string::npos || eq == 0) {
        // A value with spaces (a reason, a command line) goes on.
        if (!lastKey.empty()) record[lastKey] += " " + word;
        continue;
      }
      lastKey = word.substr(0, eq);
      record[lastKey] = word.substr(eq + 1);
    }
    if (!record.empty()) records.push_back(std::move(record));
  }
  return records;
}

QueuePhase phaseOf(const std::string& state) {
  static const std::set<std::string> waiting = {"PENDING", "REQUEUED", "REQUEUE_FED", "CONFIGURING", "RESIZING"};
  static const std::set<std::string> running = {"RUNNING",  "COMPLETING", "SUSPENDED", "STOPPED",
                                                "SIGNALING", "STAGE_OUT"};
  if (waiting.count(state)) return QueuePhase::Waiting;
  if (running.count(state)) return QueuePhase::Running;
  // COMPLETED, FAILED, CANCELLED, TIMEOUT, NODE_FAIL, PREEMPTED, OUT_OF_MEMORY,
  // BOOT_FAIL, DEADLINE, REVOKED, SPECIAL_EXIT, REQUEUE_HOLD, RESV_DEL_HOLD and
  // any state a later Slurm adds: nothing more will happen to it on its own.
  return QueuePhase::Ended;
}

std::string describeEnd(const std::string& state, const std::string& reason) {
  std::string what;
  if (state.empty()) what = "the job vanished from the queue without a result (lost)";
  else if (state == "COMPLETED") what = "the job completed without writing a result";
  else if (state == "FAILED") what = "the job failed";
  else if (state == "CANCELLED") what = "the job was cancelled";
  else if (state == "TIMEOUT") what = "the job ran past its time limit";
  else if (state == "NODE_FAIL") what = "the job's node failed";
  else if (state == "PREEMPTED") what = "the job was preempted";
  else if (state == "OUT_OF_MEMORY") what = "the job ran out of memory";
  else if (state == "BOOT_FAIL") what = "the job's node did not boot";
  else if (state == "DEADLINE") what = "the job passed its deadline";
  else if (state == "REQUEUE_HOLD" || state == "SPECIAL_EXIT") what = "Slurm held the job after a requeue";
  else what = "the job ended (" + state + ")";
  if (!reason.empty() && reason != "None" && reason != "(null)") what += " (" + reason + ")";
  return what;
}

bool isUnknownJobMessage(const std::string& output) {
  return output.find("Invalid job id specified") != std::string::npos;
}

}  // namespace crucible
