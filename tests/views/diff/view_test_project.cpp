// SPDX-License-Identifier: GPL-3.0-or-later
#include "view_test_project.h"

#include <stdexcept>
#include "core/task/task_library.h"

namespace crucible::views::fixture {

QApplication& app() {
  static int argc = 1;
  static char arg0[] = "crucible-view-test";
  static char* argv[] = {arg0, nullptr};
  // Every view test runs with the store's thread check on: a store read on
  // the GUI thread while a run is active fails the test (issue 14).
  if (qEnvironmentVariableIsEmpty("CRUCIBLE_STORE_THREAD_CHECK")) qputenv("CRUCIBLE_STORE_THREAD_CHECK", "1");
  // Never destroyed: tearing Qt down in static destructors, after gtest's
  // main returned, crashes with widgets that were shown.
  static QApplication* application = new QApplication(argc, argv);
  return *application;
}

ViewTestProject::ViewTestProject() {
  if (!dir_.isValid()) throw std::runtime_error("cannot create a temporary directory");
  store_ = ProjectStore::create(path());
  Task t;
  t.name = "gelu_f32_1048576";
  t.family = "gelu";
  t.specJson = readTaskSpecText(CRUCIBLE_SOURCE_DIR "/resources/tasks/gelu_f32_1048576.json");
  task_ = store_->addTask(t);
  Run r;
  r.taskId = task_;
  r.name = "view test run";
  r.proposer = "template";
  r.budget.evaluations = 100;
  run_ = store_->addRun(r);
}

std::string ViewTestProject::path() const { return dir_.filePath(QStringLiteral("test.crucible")).toStdString(); }

Candidate ViewTestProject::make(int generation, std::vector<CandidateId> parents, CandidateStatus status,
                                double speedup, const std::string& source) const {
  Candidate c;
  c.runId = run_;
  c.generation = generation;
  c.parents = std::move(parents);
  c.status = status;
  c.source = source;
  c.proposer = "template";
  c.mutation = c.parents.empty() ? "seed" : "mutate:vec";
  c.launch.entry = "k";
  c.architectureKey = "arch" + std::to_string(generation % 2);
  c.descriptor = {{"vec", std::to_string(1 << (generation % 3))}, {"mem", generation % 2 ? "smem" : "regs"}};
  CompileReport compile;
  compile.ok = true;
  compile.registers = 32 + generation;
  compile.staticSmemBytes = 1024;
  c.compile = compile;
  if (speedup > 0) {
    Timing t;
    t.medianUs = 100.0 / speedup;
    t.iqrUs = 0.5;
    t.referenceMedianUs = 100.0;
    t.speedup = speedup;
    t.samplesUs = {t.medianUs};
    c.timing = t;
  }
  c.fitness = speedup;
  return c;
}

CandidateId ViewTestProject::add(int generation, std::vector<CandidateId> parents, CandidateStatus status,
                                 double speedup, const std::string& source) {
  return store_->addCandidate(make(generation, std::move(parents), status, speedup, source));
}

std::unique_ptr<ProjectSession> ViewTestProject::openSession() const {
  auto session = std::make_unique<ProjectSession>();
  session->open(QString::fromStdString(path()));
  return session;
}

}  // namespace crucible::views::fixture
