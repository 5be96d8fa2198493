// SPDX-License-Identifier: GPL-3.0-or-later
// The built-in task suite as the GUI offers it, and bringing one of its tasks
// into a project (the same rule as `crucible-cli run --task NAME`).
#pragma once
#include <string>
#include <vector>
#include "core/model/ids.h"

namespace crucible {
class ProjectStore;
}

namespace crucible::app {

struct BuiltinTask {
  std::string name;  // the spec's "name"
  std::string file;  // its spec file
};

// Every built-in task spec that parses, sorted by file. A spec that does not
// parse is left out and its error (naming the file) goes to problems.
std::vector<BuiltinTask> builtinTasks(std::vector<std::string>& problems);

// The task of the spec file in the project, by core's import policy
// (core/task/task_import.h): added, or the same spec already there. Throws
// TaskSpecError (unreadable or invalid spec, naming the file), TaskNameClash
// (the name is taken by a different spec) or StoreError.
TaskId importTaskFile(ProjectStore& store, const std::string& file);

}  // namespace crucible::app
