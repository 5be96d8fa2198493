// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/core/engine/engine_fixture.h"

#include <unistd.h>
#include <atomic>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace crucible::testing {

int logLinesSaying(const ProjectStore& store, RunId run, const std::string& text) {
  int n = 0;
  for (const auto& line : store.log(run)) n += line.text.find(text) != std::string::npos;
  return n;
}

Task geluTask() {
  std::string path = std::string(CRUCIBLE_SOURCE_DIR) + "/resources/tasks/gelu_f32_1048576.json";
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::stringstream text;
  text << in.rdbuf();
  Task t;
  t.name = "gelu_f32_1048576";
  t.family = "gelu";
  t.specJson = text.str();
  return t;
}

TempProject::TempProject() {
  static std::atomic<int> counter{0};
  dir_ = std::filesystem::temp_directory_path() /
         ("crucible-engine-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  std::filesystem::remove_all(dir_);
  std::filesystem::create_directories(dir_);
  path_ = (dir_ / "project.crucible").string();
  auto store = ProjectStore::create(path_);
  task_ = store->addTask(geluTask());
}

TempProject::~TempProject() {
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

void RecordingObserver::onEvent(const EngineEvent& e) {
  std::function<void(const EngineEvent&)> hook;
  {
    std::lock_guard lock(mutex_);
    events_.push_back(e);
    hook = hook_;
  }
  if (hook) hook(e);
}

void RecordingObserver::setHook(std::function<void(const EngineEvent&)> hook) {
  std::lock_guard lock(mutex_);
  hook_ = std::move(hook);
}

std::vector<EngineEvent> RecordingObserver::events() const {
  std::lock_guard lock(mutex_);
  return events_;
}

std::vector<std::string> candidateSequence(const ProjectStore& store, RunId run) {
  std::vector<std::string> out;
  for (const auto& s : store.candidateSummaries(run)) {
    auto c = store.candidate(s.id);
    std::ostringstream line;
    line << c->generation << " | " << c->mutation << " | " << c->genomeJson << " | parents";
    for (auto p : c->parents) line << ' ' << p;
    line << " | " << toString(c->status) << " | " << c->fitness << " | strategy " << c->metaPrompt;
    out.push_back(line.str());
  }
  return out;
}

RunSettings smallSettings() {
  RunSettings s;
  s.batchSize = 4;
  s.compileThreads = 2;
  s.validationSeeds = 2;
  s.extendedValidationSeeds = 4;
  s.sealMargin = 0.05;
  return s;
}

}  // namespace crucible::testing
