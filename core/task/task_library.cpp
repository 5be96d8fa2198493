// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/task/task_library.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include "core/io/bounded_file.h"

// Set by core/task/CMakeLists.txt; the fallbacks keep this file compilable alone.
#ifndef CRUCIBLE_SOURCE_RESOURCES_DIR
#define CRUCIBLE_SOURCE_RESOURCES_DIR ""
#endif
#ifndef CRUCIBLE_INSTALL_RESOURCES_DIR
#define CRUCIBLE_INSTALL_RESOURCES_DIR ""
#endif

namespace crucible {
namespace fs = std::filesystem;

namespace {

bool isDirectory(const fs::path& p) {
  std::error_code ec;
  return !p.empty() && fs::is_directory(p, ec);
}

fs::path besideExecutable() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);  // Linux; elsewhere this candidate is skipped
  if (ec) return {};
  return exe.parent_path().parent_path() / "share" / "crucible" / "tasks";
}

}  // namespace

std::string builtinTasksDir() {
  if (const char* env = std::getenv("CRUCIBLE_TASKS_DIR"); env && *env) return isDirectory(env) ? env : "";
  const fs::path candidates[] = {
      // An installed binary takes the tasks installed with it, even on a machine
      // that also holds the source tree; a binary in a build tree has none beside it.
      besideExecutable(),
      fs::path(CRUCIBLE_SOURCE_RESOURCES_DIR).empty() ? fs::path() : fs::path(CRUCIBLE_SOURCE_RESOURCES_DIR) / "tasks",
      fs::path(CRUCIBLE_INSTALL_RESOURCES_DIR).empty() ? fs::path() : fs::path(CRUCIBLE_INSTALL_RESOURCES_DIR) / "tasks",
  };
  for (const auto& c : candidates)
    if (isDirectory(c)) return c.string();
  return "";
}

std::vector<std::string> builtinTaskFiles() {
  std::vector<std::string> files;
  const std::string dir = builtinTasksDir();
  if (dir.empty()) return files;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.is_regular_file() && entry.path().extension() == ".json") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

std::string readTaskSpecText(const std::string& path) {
  try {
    return readBoundedFile(path, kMaxTaskSpecFileBytes, "task file");
  } catch (const BoundedFileError& e) {
    throw TaskSpecError(path, e.reason());
  }
}

TaskSpec loadTaskSpecFile(const std::string& path) { return parseTaskSpecText(readTaskSpecText(path), path); }

TaskSpec parseTaskSpecText(const std::string& text, const std::string& path) {
  try {
    return parseTaskSpec(text);
  } catch (const TaskSpecError& e) {
    // Keep the field (callers and tests match on it); say which file it is in.
    throw TaskSpecError(e.field(), std::string(e.what()).substr(e.field().size() + 2) + " (in " + path + ")");
  }
}

std::optional<std::string> findBuiltinTaskFile(const std::string& name) {
  for (const auto& file : builtinTaskFiles()) {
    try {
      if (loadTaskSpecFile(file).name == name) return file;
    } catch (const TaskSpecError&) {
      // A broken built-in file is reported by `task validate` and the tests; it cannot match.
    }
  }
  return std::nullopt;
}

std::optional<std::string> findTaskSpecFile(const std::string& nameOrFile) {
  if (fs::exists(nameOrFile)) return nameOrFile;
  return findBuiltinTaskFile(nameOrFile);
}

Task taskRecord(const std::string& specText) {
  const TaskSpec spec = parseTaskSpec(specText);
  Task task;
  task.name = spec.name;
  task.family = spec.family;
  task.specJson = specText;
  task.specVersion = spec.formatVersion;
  return task;
}

}  // namespace crucible
