// SPDX-License-Identifier: GPL-3.0-or-later
// The project reader's diffing half: a first look sends everything, later
// looks only what another connection added or changed, and nothing when
// nothing changed.
#include <gtest/gtest.h>

#include <thread>

#include "core/store/project_delta_tracker.h"
#include "tests/core/store/store_test_support.h"

using namespace crucible;
using namespace crucible::store_test;

namespace {

struct TrackedProject {
  ScratchDir dir;
  std::string path = dir.file("p.crucible");
  std::unique_ptr<ProjectStore> writer = ProjectStore::create(path);
  RunId run = writer->addRun(sampleRun(writer->addTask(sampleTask())));
  std::unique_ptr<ProjectStore> reader = ProjectStore::open(path, ProjectStore::Mode::ReadOnly);

  CandidateId add(CandidateStatus status) {
    Candidate c = fullCandidate(run);
    c.status = status;
    return writer->addCandidate(c);
  }
};

TEST(ProjectDeltaTracker, FirstLookSendsTheWholeRunThenOnlyWhatChanged) {
  TrackedProject p;
  const CandidateId a = p.add(CandidateStatus::Valid);
  const CandidateId b = p.add(CandidateStatus::Proposed);
  p.writer->appendLog(p.run, "info", "first line");
  ProjectDeltaTracker tracker;
  tracker.watch(p.run);

  ProjectDelta first = tracker.look(*p.reader);
  EXPECT_TRUE(first.runReset);
  ASSERT_EQ(first.candidates.size(), 2u);
  EXPECT_EQ(first.candidates[0].id, a);
  ASSERT_TRUE(first.runs.has_value());
  EXPECT_EQ(first.runs->size(), 1u);
  ASSERT_EQ(first.log.size(), 1u);
  EXPECT_TRUE(first.archive.has_value());
  EXPECT_EQ(first.sequence, 1);

  ProjectDelta quiet = tracker.look(*p.reader);
  EXPECT_TRUE(quiet.empty()) << "a look without any commit sent something";

  // The proposed candidate is evaluated; a new one arrives; a line is logged.
  Candidate evaluated = *p.writer->candidate(b);
  evaluated.status = CandidateStatus::Invalid;
  p.writer->updateCandidate(evaluated);
  const CandidateId c = p.add(CandidateStatus::Proposed);
  p.writer->appendLog(p.run, "info", "second line");
  ProjectDelta next = tracker.look(*p.reader);
  EXPECT_FALSE(next.runReset);
  ASSERT_EQ(next.candidates.size(), 2u);
  EXPECT_EQ(next.candidates[0].id, b);
  EXPECT_EQ(next.candidates[0].status, CandidateStatus::Invalid);
  EXPECT_EQ(next.candidates[1].id, c);
  ASSERT_EQ(next.log.size(), 1u);
  EXPECT_EQ(next.log[0].text, "second line");
  EXPECT_FALSE(next.runs.has_value()) << "runs sent although none changed";
  EXPECT_FALSE(next.seals.has_value());

  // A still-proposed candidate that did not change is not sent again.
  EXPECT_TRUE(tracker.look(*p.reader).empty());
}

TEST(ProjectDeltaTracker, RunProgressArchiveAndAnotherRunAreSent) {
  TrackedProject p;
  const CandidateId a = p.add(CandidateStatus::Valid);
  ProjectDeltaTracker tracker;
  tracker.watch(p.run);
  (void)tracker.look(*p.reader);

  crucible::Run r = *p.writer->run(p.run);
  r.evaluationsDone = 5;
  p.writer->updateRun(r);
  p.writer->putArchiveCell(ArchiveCell{p.run, 0, "memory=registers", a, 1.5, 0, 0});
  ProjectDelta d = tracker.look(*p.reader);
  ASSERT_TRUE(d.runs.has_value());
  EXPECT_EQ(d.runs->front().evaluationsDone, 5);
  ASSERT_TRUE(d.archive.has_value());
  ASSERT_EQ(d.archive->size(), 1u);
  ASSERT_EQ(d.eliteDescriptors.count(a), 1u);
  EXPECT_EQ(d.eliteDescriptors[a].at("vector"), "4");

  const RunId other = p.writer->addRun(sampleRun(p.writer->tasks().front().id));
  tracker.watch(other);
  ProjectDelta switched = tracker.look(*p.reader);
  EXPECT_TRUE(switched.runReset);
  EXPECT_EQ(switched.run, other);
  EXPECT_TRUE(switched.candidates.empty());
  ASSERT_TRUE(switched.runs.has_value());
  EXPECT_EQ(switched.runs->size(), 2u);
}

TEST(ProjectStoreThreadCheck, AStoreUsedOnAnotherThreadThrowsOnlyWhenTheCheckIsOn) {
  TrackedProject p;
  p.reader->bindToThread(std::this_thread::get_id(), "the test's main thread");
  std::string error;
  auto readElsewhere = [&] {
    error.clear();
    std::thread t([&] {
      try {
        (void)p.reader->candidateCount(p.run);
      } catch (const StoreError& e) {
        error = e.what();
      }
    });
    t.join();
  };
  readElsewhere();
  EXPECT_EQ(error, "") << "the check is off by default";
  p.reader->setThreadCheck(true);
  EXPECT_NO_THROW((void)p.reader->candidateCount(p.run)) << "the owner itself was refused";
  readElsewhere();
  EXPECT_NE(error.find("does not own it"), std::string::npos) << error;
  EXPECT_NE(error.find("the test's main thread"), std::string::npos) << error;
  p.reader->setThreadCheck(false);
  readElsewhere();
  EXPECT_EQ(error, "");
}

}  // namespace

namespace {

TEST(ProjectDeltaTracker, AnyCandidateEditedWhileNoRunIsInProgressIsSent) {
  TrackedProject p;
  crucible::Run r = *p.writer->run(p.run);
  r.status = RunStatus::Stopped;
  p.writer->updateRun(r);
  const CandidateId a = p.add(CandidateStatus::Valid);
  ProjectDeltaTracker tracker;
  tracker.watch(p.run);
  (void)tracker.look(*p.reader);

  Candidate edited = *p.writer->candidate(a);  // settled, yet another process rewrites it
  edited.status = CandidateStatus::Faulted;
  p.writer->updateCandidate(edited);
  ProjectDelta d = tracker.look(*p.reader);
  ASSERT_EQ(d.candidates.size(), 1u);
  EXPECT_EQ(d.candidates[0].status, CandidateStatus::Faulted);
  EXPECT_TRUE(tracker.look(*p.reader).empty());
}

}  // namespace
