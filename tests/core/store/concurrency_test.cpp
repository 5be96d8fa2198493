// SPDX-License-Identifier: GPL-3.0-or-later
// The project file is the truth while other connections read it and when
// the writing process dies: readers see committed rows (and only those), and
// a writer killed mid-loop loses nothing it had committed.
#include <gtest/gtest.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>

#include "core/store/project_store.h"
#include "tests/core/store/store_test_support.h"

using namespace crucible;
using namespace crucible::store_test;

namespace {

// Hands a turn back and forth between two threads.
class Turns {
public:
  void give(int turn) {
    std::lock_guard lock(mutex_);
    turn_ = turn;
    changed_.notify_all();
  }
  void await(int turn) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return turn_ == turn; });
  }

private:
  std::mutex mutex_;
  std::condition_variable changed_;
  int turn_ = 0;
};

TEST(StoreConcurrency, ReaderSeesCommittedRowsWhileAWriterWrites) {
  ScratchDir dir;
  const auto path = dir.file("p.crucible");
  RunId run = 0;
  {
    auto store = ProjectStore::create(path);
    run = store->addRun(sampleRun(store->addTask(sampleTask())));
  }
  constexpr int kRounds = 20;
  Turns turns;
  std::atomic<bool> writerFailed{false};
  std::thread writer([&] {
    try {
      auto store = ProjectStore::open(path);
      for (int i = 1; i <= kRounds; ++i) {
        // Write one candidate inside a transaction and let the reader look
        // while it is still uncommitted; then commit and let it look again.
        store->transaction([&] {
          store->addCandidate(fullCandidate(run));
          turns.give(2 * i - 1);
          turns.await(2 * i);
        });
        turns.give(2 * i + 1000);
        turns.await(2 * i + 2000);
      }
    } catch (...) {
      writerFailed = true;
      for (int i = 1; i <= kRounds; ++i) turns.give(2 * i - 1);  // do not leave the reader waiting
    }
  });

  auto reader = ProjectStore::open(path, ProjectStore::Mode::ReadOnly);
  for (int i = 1; i <= kRounds && !writerFailed; ++i) {
    turns.await(2 * i - 1);
    EXPECT_EQ(reader->candidateCount(run), i - 1) << "the reader saw an uncommitted row";
    turns.give(2 * i);
    turns.await(2 * i + 1000);
    EXPECT_EQ(reader->candidateCount(run), i) << "the reader missed a committed row";
    const auto summaries = reader->candidateSummaries(run);
    ASSERT_EQ(summaries.size(), static_cast<std::size_t>(i));
    EXPECT_TRUE(reader->candidate(summaries.back().id));
    turns.give(2 * i + 2000);
  }
  writer.join();
  EXPECT_FALSE(writerFailed);
}

// Reads exactly n bytes unless the pipe closes first.
bool readAll(int fd, void* buffer, std::size_t n) {
  auto* p = static_cast<char*>(buffer);
  while (n > 0) {
    const ssize_t got = read(fd, p, n);
    if (got <= 0) return false;
    p += got;
    n -= static_cast<std::size_t>(got);
  }
  return true;
}

TEST(StoreKill, AWriterKilledMidLoopLosesNothingItCommitted) {
  ScratchDir dir;
  const auto path = dir.file("p.crucible");
  RunId run = 0;
  CandidateId root = 0;
  {
    auto store = ProjectStore::create(path);
    run = store->addRun(sampleRun(store->addTask(sampleTask())));
    root = store->addCandidate(fullCandidate(run));
  }

  int pipeFds[2];
  ASSERT_EQ(pipe(pipeFds), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // The child: its own connection, writing until it is killed. Nothing of
    // the parent's SQLite state crosses the fork (the parent holds no connection).
    close(pipeFds[0]);
    try {
      auto store = ProjectStore::open(path);
      for (int generation = 0;; ++generation) {
        Candidate c = fullCandidate(run, {root});
        c.generation = generation;
        c.source += "// generation " + std::to_string(generation) + "\n";
        const CandidateId id = store->addCandidate(c);  // committed when it returns
        if (write(pipeFds[1], &id, sizeof id) != static_cast<ssize_t>(sizeof id)) _exit(3);
      }
    } catch (...) {
      _exit(2);
    }
  }
  close(pipeFds[1]);

  constexpr int kReported = 300;
  std::vector<CandidateId> reported;
  CandidateId id = 0;
  while (static_cast<int>(reported.size()) < kReported && readAll(pipeFds[0], &id, sizeof id)) reported.push_back(id);
  const bool childWasWriting = static_cast<int>(reported.size()) == kReported;
  kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  // Ids the child reported after our last read are committed too: take them all.
  while (readAll(pipeFds[0], &id, sizeof id)) reported.push_back(id);
  close(pipeFds[0]);
  ASSERT_TRUE(childWasWriting) << "the child stopped writing early (exit status " << status << ")";
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << "the child died before it was killed";

  // The file as the dead process left it: check it raw first (open() would
  // refuse a damaged file, which would hide what the damage was).
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr), SQLITE_OK);
    sqlite3_stmt* s = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &s, nullptr), SQLITE_OK);
    ASSERT_EQ(sqlite3_step(s), SQLITE_ROW);
    EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(s, 0)), "ok");
    sqlite3_finalize(s);
    sqlite3_close(db);
  }

  auto store = ProjectStore::open(path);
  const Candidate expected = fullCandidate(run, {root});
  for (std::size_t i = 0; i < reported.size(); ++i) {
    const auto c = store->candidate(reported[i]);
    ASSERT_TRUE(c) << "committed candidate " << reported[i] << " was lost";
    EXPECT_EQ(c->generation, static_cast<int>(i));
    EXPECT_EQ(c->source, expected.source + "// generation " + std::to_string(i) + "\n");
    EXPECT_EQ(c->parents, expected.parents);
    EXPECT_EQ(c->status, expected.status);
    ASSERT_TRUE(c->compile && c->timing);
    EXPECT_EQ(c->compile->diagnostics.size(), expected.compile->diagnostics.size());
    EXPECT_EQ(c->timing->samplesUs, expected.timing->samplesUs);
    EXPECT_EQ(c->validation.size(), expected.validation.size());
    EXPECT_EQ(c->profile, expected.profile);
    EXPECT_EQ(c->descriptor, expected.descriptor);
  }
  // At most the candidate in flight (committed but not yet reported) is extra.
  const auto total = static_cast<std::int64_t>(1 + reported.size());
  EXPECT_GE(store->candidateCount(run), total);
  EXPECT_LE(store->candidateCount(run), total + 1);
  // And the run goes on in the same file.
  EXPECT_GT(store->addCandidate(fullCandidate(run)), reported.back());
}

}  // namespace
