// SPDX-License-Identifier: GPL-3.0-or-later
// Bringing a task spec into a project: the one policy behind File > Import
// task..., starting a GUI run on a built-in task, `crucible-cli task import`
// and `crucible-cli run --task NAME|FILE`.
//
//   - a spec the project does not have (by name) is added;
//   - a spec whose name the project has, with the same spec (the same text,
//     or the same document once parsed), is already there: its task is used;
//   - a spec whose name the project has with a different spec is refused
//     (TaskNameClash): two specs never share a name in one project.
#pragma once
#include <stdexcept>
#include <string>
#include "core/model/ids.h"

namespace crucible {

class ProjectStore;

// The project has a task of that name whose spec differs from the one imported.
class TaskNameClash : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

struct TaskImport {
  enum class Outcome { Added, AlreadyPresent };
  TaskId id = 0;
  std::string name;  // the spec's name
  Outcome outcome = Outcome::Added;
};

// specText is the spec document; origin (a file name, or "" for none) goes
// into error messages. Throws TaskSpecError (invalid spec; the field, and the
// origin when given), TaskNameClash, StoreError.
TaskImport importTaskSpec(ProjectStore& store, const std::string& specText, const std::string& origin = "");

// The same for a spec file: its errors name the file (TaskSpecError "cannot
// read" for I/O errors, as readTaskSpecText).
TaskImport importTaskFile(ProjectStore& store, const std::string& file);

}  // namespace crucible
