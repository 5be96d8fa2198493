// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/task_import.h"
#include "core/store/project_store.h"
#include "core/task/task_import.h"
#include "core/task/task_library.h"

namespace crucible::app {

std::vector<BuiltinTask> builtinTasks(std::vector<std::string>& problems) {
  std::vector<BuiltinTask> tasks;
  for (const std::string& file : builtinTaskFiles()) {
    try {
      tasks.push_back({loadTaskSpecFile(file).name, file});
    } catch (const std::exception& e) {
      problems.emplace_back(e.what());
    }
  }
  return tasks;
}

TaskId importTaskFile(ProjectStore& store, const std::string& file) { return crucible::importTaskFile(store, file).id; }

}  // namespace crucible::app
