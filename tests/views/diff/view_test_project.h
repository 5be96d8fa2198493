// SPDX-License-Identifier: GPL-3.0-or-later
// Test fixture for the view tests: a temporary project filled by the test
// through ProjectStore (never shown to users), and a session reading it.
#pragma once
#include <QApplication>
#include <QTemporaryDir>
#include <memory>
#include <string>
#include <vector>
#include "core/store/project_store.h"
#include "views/session/project_session.h"

namespace crucible::views::fixture {

// The one QApplication of a test program (offscreen under ctest).
QApplication& app();

class ViewTestProject {
public:
  // Creates the project with one task (the built-in gelu_f32_1048576 spec) and one run.
  ViewTestProject();

  ProjectStore& store() { return *store_; }
  std::string path() const;
  TaskId task() const { return task_; }
  RunId run() const { return run_; }

  // A candidate of the run with the figures a timed, compiled kernel has.
  Candidate make(int generation, std::vector<CandidateId> parents, CandidateStatus status, double speedup,
                 const std::string& source = "__global__ void k() {}\n") const;
  CandidateId add(int generation, std::vector<CandidateId> parents, CandidateStatus status, double speedup,
                  const std::string& source = "__global__ void k() {}\n");

  // Opens a read-only session on the project (as the GUI does).
  std::unique_ptr<ProjectSession> openSession() const;

private:
  QTemporaryDir dir_;
  std::unique_ptr<ProjectStore> store_;
  TaskId task_ = 0;
  RunId run_ = 0;
};

}  // namespace crucible::views::fixture
