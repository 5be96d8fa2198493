// SPDX-License-Identifier: GPL-3.0-or-later
// The engine on doubles, as most engine tests drive it: a fresh project with
// the GELU task, the fake proposer and compiler, one fake GPU, an observer
// that records events, and a sanitizer that reports clean.
#pragma once
#include "core/engine/engine.h"
#include "tests/core/engine/doubles/fake_backends.h"
#include "tests/core/engine/doubles/fake_proposer.h"
#include "tests/core/engine/doubles/fake_sanitizer.h"
#include "tests/core/engine/engine_fixture.h"

namespace crucible::testing {

struct EngineBench {
  TempProject project;
  FakeProposer proposer;
  FakeCompiler compiler;
  FakeDispatcher dispatcher{1};
  RecordingObserver observer;
  FakeSanitizer sanitizer;
  Engine engine{project.path(), proposer, compiler, dispatcher, &observer, &sanitizer};

  // Stops the engine once the run has committed `evaluations` results (the
  // observer's hook; setHook(nullptr) lets a later session run on).
  void stopAfter(std::int64_t evaluations) {
    observer.setHook([this, evaluations](const EngineEvent& e) {
      const auto* evaluated = as<events::CandidateEvaluated>(e);
      if (evaluated && evaluated->counters.evaluationsDone == evaluations) engine.stop();
    });
  }
};

}  // namespace crucible::testing
