// SPDX-License-Identifier: GPL-3.0-or-later
// The project file (.crucible, one SQLite database) is the truth: everything
// the engine learns is committed to it as it happens. This is the only place
// in Crucible that speaks SQL.
//
// Threading: a ProjectStore owns one SQLite connection and is used by one
// thread at a time. The engine's worker thread and the GUI each open their
// own ProjectStore on the same file (WAL lets readers run beside the writer).
// bindToThread() + setThreadCheck(true) turn that rule into a check: every
// statement run on another thread than the owner's throws StoreError.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>
#include "core/model/archive_cell.h"
#include "core/model/candidate.h"
#include "core/model/knowledge.h"
#include "core/model/run.h"
#include "core/model/seal.h"
#include "core/model/task.h"

struct sqlite3;

namespace crucible {
namespace store_detail {
class StatementCache;
}

// Every failure names the file and the reason.
class StoreError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

struct ReviewVerdict {
  RunId runId = 0;
  std::string architectureKey;
  bool accepted = false;
  std::string note;
  std::int64_t decidedAt = 0;
};

struct LogLine {
  std::int64_t id = 0;
  RunId runId = 0;
  std::int64_t at = 0;             // unix milliseconds
  std::string level;               // "info" | "warning" | "error"
  std::string text;
};

// The kernel editor's unsaved edit of one kernel (issue 17), kept as the
// user types and offered back after a crash. One per (run, parent).
struct KernelDraft {
  RunId runId = 0;
  CandidateId parent = 0;          // the forked candidate; 0: a kernel opened from a file
  std::string source;
  LaunchRule launch;               // the launch fields as typed (blank ones stay blank)
  std::string note;
  std::string origin;              // what the editor said it holds ("Fork of #12 ...")
  std::int64_t savedAt = 0;        // unix milliseconds; 0 on save means now
};

// A seal validated and timed again on other hardware: the new figures (held by
// the user candidate candidateId) and the fingerprint they were measured on.
struct SealRevalidation {
  std::int64_t id = 0;
  SealId sealId = 0;
  CandidateId candidateId = 0;
  std::string status;              // the candidate's status ("valid", "invalid", ...)
  double medianUs = 0;             // NaN when it was not timed
  double speedup = 0;              // against its run's reference, measured there too
  Fingerprint fingerprint;
  std::int64_t validatedAt = 0;    // unix seconds; 0 on add means now
};

class ProjectStore {
public:
  enum class Mode { ReadWrite, ReadOnly };

  // Creates a new, empty project; fails ("the file already exists") if there
  // is one. The project is set up under a temporary name in the same folder
  // and appears under its own name complete (link(2)): of processes creating
  // the same project at once exactly one succeeds, and nobody ever opens a
  // half-made file.
  static std::unique_ptr<ProjectStore> create(const std::string& path);
  // Opens the project, creating it first if there is no file: processes
  // doing this at once all end up in the one project.
  static std::unique_ptr<ProjectStore> openOrCreate(const std::string& path);
  // Opens an existing project, migrating an older schema forward (ReadWrite
  // only; read-only reads a version-2 file as it is, its drafts and seal
  // re-validations as none, and refuses older ones). A file that is not a Crucible project, is corrupt, or has a newer
  // schema throws StoreError and is left untouched. On storage this process
  // cannot write (a read-only mount; a file or folder without write
  // permission) a project opens read-only in either mode, and every write
  // fails with "the project is open read-only (<why>)". Reading leaves no
  // -wal/-shm files beside a project that had none.
  static std::unique_ptr<ProjectStore> open(const std::string& path, Mode mode = Mode::ReadWrite);
  // Why the project at `path` cannot be written here ("it is on a read-only
  // file system"); "" when it can. For a file not there yet: whether it
  // could be created. Opens nothing.
  static std::string writeProblem(const std::string& path);
  static int currentSchemaVersion();

  ~ProjectStore();
  ProjectStore(const ProjectStore&) = delete;
  ProjectStore& operator=(const ProjectStore&) = delete;

  const std::string& path() const { return path_; }
  bool readOnly() const { return readOnly_; }
  // Why this store does not write ("" when it does): the storage's reason, or
  // "opened for reading" for Mode::ReadOnly on writable storage.
  const std::string& readOnlyReason() const { return readOnlyReason_; }
  int schemaVersion() const;
  // SQLite's data_version: changes when another connection commits to the
  // file (this connection's own writes leave it alone). A cheap "did anything
  // change?" probe for readers that poll.
  std::int64_t dataVersion() const;

  // Owning-thread check, off by default (it costs a comparison per
  // statement). bindToThread names the thread allowed to use this store
  // (default: the caller) and, optionally, why ("the project reader: a run is
  // in progress"); with the check on, a statement on any other thread throws
  // StoreError naming the file, the owner and the reason.
  void bindToThread(std::thread::id owner = std::this_thread::get_id(), std::string why = {});
  void setThreadCheck(bool on);
  bool threadCheck() const { return threadCheck_; }

  // Runs fn inside one transaction (nested calls join the outer one);
  // rolls back and rethrows if fn throws. Single calls below are each atomic.
  void transaction(const std::function<void()>& fn);

  // Tasks
  TaskId addTask(const Task& task);                       // name must be unique
  std::optional<Task> task(TaskId id) const;
  std::optional<Task> taskByName(const std::string& name) const;
  std::vector<Task> tasks() const;

  // Runs
  RunId addRun(const Run& run);
  void updateRun(const Run& run);                         // every field but id/createdAt
  std::optional<Run> run(RunId id) const;
  std::vector<Run> runs() const;

  // Candidates (parents are stored as lineage edges). add ignores c.id and
  // returns the new one; createdAt 0 means now. Each call is one commit: the
  // engine can group a candidate's writes in transaction() to commit once.
  CandidateId addCandidate(const Candidate& c);
  void updateCandidate(const Candidate& c);               // status, reports, timing, profile, fitness, descriptor
  std::optional<Candidate> candidate(CandidateId id) const;
  std::vector<CandidateSummary> candidateSummaries(RunId run = 0) const;  // 0 = all runs, ordered by id
  // For readers catching up: the run's candidates with id > afterId, and the
  // given candidates (those whose status could still change), each ordered by
  // id, with parents. Index lookups only: cheap on a 100k run.
  std::vector<CandidateSummary> candidateSummariesSince(RunId run, CandidateId afterId) const;
  std::vector<CandidateSummary> candidateSummariesById(const std::vector<CandidateId>& ids) const;  // missing ids skipped
  std::vector<Candidate> candidatesWithStatus(RunId run, CandidateStatus status) const;
  std::int64_t candidateCount(RunId run = 0) const;

  // Tuning cache: a configuration (architecture + parameters) is measured once per task.
  void recordTuning(TaskId task, const std::string& configKey, CandidateId candidate);
  std::optional<CandidateId> lookupTuning(TaskId task, const std::string& configKey) const;

  // MAP-Elites archive
  void putArchiveCell(const ArchiveCell& cell);           // insert or replace by (run, island, key)
  void removeArchiveCell(RunId run, int island, const std::string& key);   // no-op when absent
  std::vector<ArchiveCell> archive(RunId run) const;

  // Review gate
  void recordVerdict(const ReviewVerdict& v);             // insert or replace by (run, architecture)
  std::optional<ReviewVerdict> verdict(RunId run, const std::string& architectureKey) const;
  std::vector<ReviewVerdict> verdicts(RunId run) const;

  // Knowledge (outlives runs). search() uses SQLite FTS5 over claim/decision/scope.
  KnowledgeId addKnowledge(const KnowledgeEntry& k);
  // Writes the measured fields and the evidence; the user's word (pinned,
  // disabled, userAdded, userClaim) is written by addKnowledge and
  // setKnowledgeUserState only, so the engine's updates never undo it.
  void updateKnowledge(const KnowledgeEntry& k);
  // The user's word on a claim (the knowledge browser); throws for an unknown id.
  void setKnowledgeUserState(KnowledgeId id, bool pinned, bool disabled, const std::string& userClaim);
  std::vector<KnowledgeEntry> knowledge() const;
  // Every word of the query must match (claim, decision or scope); a word
  // ending in '*' matches as a prefix; punctuation is not query syntax.
  // Best matches first; an empty query returns all entries.
  std::vector<KnowledgeEntry> searchKnowledge(const std::string& query) const;

  // Seals
  SealId addSeal(const Seal& s);
  std::vector<Seal> seals(TaskId task = 0) const;          // 0 = all tasks, newest first
  std::optional<Seal> latestSeal(TaskId task) const;

  // Seals validated again (store_seal_revalidations.cpp), oldest first.
  std::int64_t addSealRevalidation(const SealRevalidation& r);
  std::vector<SealRevalidation> sealRevalidations(SealId seal) const;

  // Kernel editor drafts (store_drafts.cpp): insert or replace by (run, parent).
  void saveDraft(const KernelDraft& d);
  std::vector<KernelDraft> drafts() const;                 // newest first
  std::optional<KernelDraft> draft(RunId run, CandidateId parent) const;
  void deleteDraft(RunId run, CandidateId parent);         // none there: nothing happens

  // Meta-prompts / mutation strategies
  MetaPromptId addMetaPrompt(const MetaPrompt& m);
  void updateMetaPrompt(const MetaPrompt& m);
  std::vector<MetaPrompt> metaPrompts(RunId run) const;    // the run's and the global ones

  // Device ceilings (roofline roofs), measured once per device
  void putCeiling(const Ceiling& c);                       // insert or replace by (device, name)
  std::vector<Ceiling> ceilings(const std::string& device = "") const;  // "" = all

  // Engine log. run 0: a project-wide line when appending, every line when reading.
  void appendLog(RunId run, const std::string& level, const std::string& text);
  std::vector<LogLine> log(RunId run, std::int64_t afterId = 0, int limit = 1000) const;

private:
  ProjectStore(std::string path, sqlite3* db);
  // Runs fn as one write transaction; refuses in ReadOnly mode and names the
  // operation (what) in errors.
  void write(const char* what, const std::function<void()>& fn);
  std::string path_;
  sqlite3* db_ = nullptr;
  int transactionDepth_ = 0;
  bool readOnly_ = false;
  std::string readOnlyReason_;
  std::unique_ptr<store_detail::StatementCache> statements_;  // prepared once per connection
  void checkThread() const;
  std::atomic<std::thread::id> owner_{};
  std::string ownerWhy_;  // set with owner_, on the thread that binds
  std::atomic<bool> threadCheck_{false};
};

}  // namespace crucible
