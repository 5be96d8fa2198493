// SPDX-License-Identifier: GPL-3.0-or-later
// A stop asked by another process (crucible-cli stop) through the request
// file beside the project: the run stops cleanly, stays resumable and the
// file is gone; a stale request does not stop the next session.
#include "core/engine/stop_request.h"

#include <gtest/gtest.h>
#include <filesystem>
#include <thread>
#include "core/engine/engine.h"
#include "tests/core/engine/doubles/fake_backends.h"
#include "tests/core/engine/doubles/fake_proposer.h"
#include "tests/core/engine/doubles/fake_sanitizer.h"
#include "tests/core/engine/doubles/engine_bench.h"
#include "tests/core/engine/engine_fixture.h"

namespace crucible {
namespace {

using Bench = testing::EngineBench;

TEST(StopRequest, AnotherProcessStopsARunCleanlyAndTheRequestIsRemoved) {
  Bench b;
  b.dispatcher.evaluator(0).delayMicroseconds = 2000;
  const RunId run = b.engine.createRun(b.project.task(), "stop", 5, Budget{200, 0, 0}, false, testing::smallSettings());
  b.observer.setHook([&](const EngineEvent& e) {
    const auto* evaluated = as<events::CandidateEvaluated>(e);
    // What `crucible-cli stop` does, from the engine's own thread here for determinism.
    if (evaluated && evaluated->counters.evaluationsDone == 6) requestStop(b.project.path(), run);
  });
  b.engine.run(run);
  auto store = b.project.open();
  EXPECT_EQ(store->run(run)->status, RunStatus::Stopped);
  EXPECT_LT(store->run(run)->evaluationsDone, 200);
  EXPECT_FALSE(std::filesystem::exists(stopRequestPath(b.project.path(), run))) << "the engine removes the request";
  bool said = false;
  for (const auto& line : store->log(run)) said = said || line.text.find("another process asked") != std::string::npos;
  EXPECT_TRUE(said);
}

TEST(StopRequest, AStaleRequestDoesNotStopTheNextSession) {
  Bench b;
  const RunId run = b.engine.createRun(b.project.task(), "stale", 6, Budget{12, 0, 0}, false, testing::smallSettings());
  requestStop(b.project.path(), run);  // asked while nothing ran
  ASSERT_TRUE(stopRequested(b.project.path(), run));
  b.engine.run(run);
  EXPECT_EQ(b.project.open()->run(run)->status, RunStatus::Finished);
  EXPECT_FALSE(stopRequested(b.project.path(), run));
}

TEST(StopRequest, AnUnwritableRequestIsAnErrorNamingTheFile) {
  try {
    requestStop("/nonexistent-folder/p.crucible", 3);
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent-folder/p.crucible.stop-3"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace crucible
