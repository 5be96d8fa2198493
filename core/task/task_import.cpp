// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/task/task_import.h"

#include "core/store/project_store.h"
#include "core/task/task_library.h"
#include "core/task/task_spec.h"

namespace crucible {

namespace {

// The same spec: the same text, or the same document once parsed (whitespace
// and key order do not make two specs differ). A stored spec that no longer
// parses is never the same as a valid one.
bool sameSpec(const std::string& storedText, const TaskSpec& imported, const std::string& importedText) {
  if (storedText == importedText) return true;
  try {
    return toJson(parseTaskSpec(storedText)) == toJson(imported);
  } catch (const TaskSpecError&) {
    return false;
  }
}

TaskImport present(const Task& existing, const TaskSpec& spec, const std::string& text, const std::string& origin) {
  if (!sameSpec(existing.specJson, spec, text))
    throw TaskNameClash("the project already has a task named '" + spec.name + "' (task " +
                        std::to_string(existing.id) + ") with a different spec" +
                        (origin.empty() ? std::string() : " than " + origin) +
                        "; rename the task in the spec to import it");
  return {existing.id, spec.name, TaskImport::Outcome::AlreadyPresent};
}

}  // namespace

TaskImport importTaskSpec(ProjectStore& store, const std::string& specText, const std::string& origin) {
  const TaskSpec spec = origin.empty() ? parseTaskSpec(specText) : parseTaskSpecText(specText, origin);
  if (const auto existing = store.taskByName(spec.name)) return present(*existing, spec, specText, origin);
  try {
    return {store.addTask(taskRecord(specText)), spec.name, TaskImport::Outcome::Added};
  } catch (const StoreError&) {
    // Another connection may have added the same name between the look-up and the insert.
    if (const auto existing = store.taskByName(spec.name)) return present(*existing, spec, specText, origin);
    throw;
  }
}

TaskImport importTaskFile(ProjectStore& store, const std::string& file) {
  return importTaskSpec(store, readTaskSpecText(file), file);
}

}  // namespace crucible
