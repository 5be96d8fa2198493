// SPDX-License-Identifier: GPL-3.0-or-later
// The built-in task suite (resources/tasks/*.json) and reading spec files.
#pragma once
#include <optional>
#include <string>
#include <vector>
#include "core/model/task.h"
#include "core/task/task_spec.h"

namespace crucible {

// The folder holding the built-in task specs, the first that exists of:
//   $CRUCIBLE_TASKS_DIR; <executable>/../share/crucible/tasks (an install,
//   relocated or not); the source tree's resources/tasks (development builds);
//   the configured install prefix's share/crucible/tasks. "" when none exists.
std::string builtinTasksDir();

// The *.json files in builtinTasksDir(), sorted by path; empty if there is no folder.
std::vector<std::string> builtinTaskFiles();

// Reads and parses a spec file. Throws TaskSpecError: "<path>: cannot read"
// for I/O errors; a spec error keeps its field and gets the file name in front.
TaskSpec loadTaskSpecFile(const std::string& path);

// Parses a spec read from `path`: a spec error keeps its field and gets
// " (in <path>)" after its message, as loadTaskSpecFile's.
TaskSpec parseTaskSpecText(const std::string& text, const std::string& path);

// Reads a spec file's text: a regular file of at most kMaxTaskSpecFileBytes
// (core/io/bounded_file.h). Throws TaskSpecError naming the path otherwise.
std::string readTaskSpecText(const std::string& path);

// The built-in spec file whose "name" is `name`, or nullopt.
std::optional<std::string> findBuiltinTaskFile(const std::string& name);

// What a NAME|FILE argument names: the path when it exists, else the built-in
// spec file of that name, else nullopt.
std::optional<std::string> findTaskSpecFile(const std::string& nameOrFile);

// The project store's record of a task: the spec text verbatim (as the store
// keeps specs) with the fields that are queried. Validates the spec first:
// throws TaskSpecError naming the field.
Task taskRecord(const std::string& specText);

}  // namespace crucible
