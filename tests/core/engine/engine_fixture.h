// SPDX-License-Identifier: GPL-3.0-or-later
// Shared setup for engine tests: a fresh project file in a temporary folder
// with the built-in GELU task, and an observer that records events.
#pragma once
#include <filesystem>
#include <functional>
#include <mutex>
#include <string>
#include <vector>
#include "core/engine/engine.h"
#include "core/store/project_store.h"

namespace crucible::testing {

// The GELU task from resources/tasks (its baseline is the fake run's reference).
Task geluTask();

// How many lines of the run's log contain `text`.
int logLinesSaying(const ProjectStore& store, RunId run, const std::string& text);

class TempProject {
public:
  TempProject();
  ~TempProject();
  TempProject(const TempProject&) = delete;
  TempProject& operator=(const TempProject&) = delete;
  const std::string& path() const { return path_; }
  std::filesystem::path dir() const { return dir_; }
  TaskId task() const { return task_; }
  std::unique_ptr<ProjectStore> open() const { return ProjectStore::open(path_); }

private:
  std::filesystem::path dir_;
  std::string path_;
  TaskId task_ = 0;
};

class RecordingObserver : public EngineObserver {
public:
  void onEvent(const EngineEvent& e) override;
  std::vector<EngineEvent> events() const;
  // How many events of kind K, and their payloads in order.
  template <class K>
  int count() const {
    return static_cast<int>(all<K>().size());
  }
  template <class K>
  std::vector<K> all() const {
    std::lock_guard lock(mutex_);
    std::vector<K> out;
    for (const auto& e : events_)
      if (const K* k = as<K>(e)) out.push_back(*k);
    return out;
  }
  // Called for each event after it is recorded (from the engine's threads).
  void setHook(std::function<void(const EngineEvent&)> hook);

private:
  mutable std::mutex mutex_;
  std::function<void(const EngineEvent&)> hook_;
  std::vector<EngineEvent> events_;
};

// A compact, comparable line per candidate of a run (id order): what two
// runs must agree on to be called identical.
std::vector<std::string> candidateSequence(const ProjectStore& store, RunId run);

// Settings that keep tests small and fast.
RunSettings smallSettings();

}  // namespace crucible::testing
