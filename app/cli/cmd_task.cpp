// SPDX-License-Identifier: GPL-3.0-or-later
// crucible-cli task validate|list|show|import: task specs from the command line.
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>
#include "app/cli/axes_option.h"
#include "app/cli/command.h"
#include "app/cli/exit_codes.h"
#include "app/cli/options.h"
#include "core/store/project_store.h"
#include "core/task/kernel_abi.h"
#include "core/task/launch_variables.h"
#include "core/task/task_import.h"
#include "core/task/task_library.h"

namespace crucible::cli {
namespace {

// A path that exists is a file; anything else is looked up by name in the built-in suite.
std::string resolveSpecFile(const std::string& nameOrFile) {
  if (auto file = findTaskSpecFile(nameOrFile)) return *file;
  throw std::runtime_error("no file and no built-in task named '" + nameOrFile + "' (see `crucible-cli task list`)");
}

std::string humanCount(std::int64_t v, const char* unit) {
  static const char* prefixes[] = {"", "K", "M", "G", "T", "P"};
  double x = double(v);
  int p = 0;
  while (x >= 1000 && p < 5) x /= 1000, ++p;
  std::ostringstream s;
  s << std::setprecision(4) << x << " " << prefixes[p] << unit;
  return s.str();
}

// A launch value at the task's axes; one that names sm_count stays an expression: no GPU is known here.
std::string launchValue(const std::string& e, const TaskSpec& spec) {
  return usesSmCount(e) ? "(" + e + ")" : std::to_string(evalExpression(e, spec.axes));
}

std::string dims(const std::string (&d)[3], const TaskSpec& spec) {
  std::string s;
  for (int i = 0; i < 3; ++i) s += (i ? " x " : "") + launchValue(d[i], spec);
  return s;
}

int validate(const Options& o) {
  const std::vector<std::string>& files = o.positional();
  if (files.empty()) throw UsageError("needs at least one FILE");
  int failures = 0;
  for (const auto& file : files) {
    try {
      // With --axes, each file is checked at that shape too (an axis it lacks is a usage error).
      const TaskSpec spec = parseTaskSpec(specTextAtAxes(o, readTaskSpecText(file), file));
      std::cout << file << ": OK (" << spec.name << ")\n";
    } catch (const TaskSpecError& e) {
      std::cout << file << ": " << e.what() << "\n";
      ++failures;
    }
  }
  return failures ? 1 : 0;
}

int list() {
  const std::string dir = builtinTasksDir();
  if (dir.empty())
    throw std::runtime_error("no built-in task folder found (set CRUCIBLE_TASKS_DIR to a folder of task specs)");
  std::cout << "built-in tasks in " << dir << ":\n";
  int failures = 0;
  for (const auto& file : builtinTaskFiles()) {
    try {
      const TaskSpec s = loadTaskSpecFile(file);
      std::string axes;
      for (const auto& [name, value] : s.axes) axes += (axes.empty() ? "" : " ") + name + "=" + std::to_string(value);
      std::cout << "  " << std::left << std::setw(40) << s.name << std::setw(18) << s.family << std::setw(26) << axes
                << s.libraryReference << "\n";
    } catch (const TaskSpecError& e) {
      std::cout << "  INVALID " << file << ": " << e.what() << "\n";
      ++failures;
    }
  }
  return failures ? 1 : 0;
}

void printKernel(const char* role, const SpecKernel& k, const TaskSpec& spec) {
  std::cout << role << ": " << k.launch.entry << "  grid " << dims(k.launch.grid, spec) << "  block "
            << dims(k.launch.block, spec) << "  dynamic smem " << launchValue(k.launch.dynamicSmemBytes, spec) << " B";
  if (usesSmCount(k.launch)) std::cout << "  (sm_count: the SM count of the GPU it launches on)";
  std::cout << "\n";
}

int show(const Options& opts) {
  if (opts.positional().size() != 1) throw UsageError("needs one NAME or FILE");
  const std::string file = resolveSpecFile(opts.positional()[0]);
  const TaskSpec s = opts.has("axes") ? parseTaskSpec(specTextAtAxes(opts, readTaskSpecText(file), file))
                                      : loadTaskSpecFile(file);
  if (opts.flag("json")) {
    std::cout << toJson(s);
    return 0;
  }
  std::cout << s.name << "  (" << s.family << ", " << file << ")\n";
  if (!s.description.empty()) std::cout << s.description << "\n";
  std::cout << "\naxes:";
  for (const auto& [name, value] : s.axes) std::cout << " " << name << "=" << value;
  std::cout << "\ninputs:\n";
  for (const auto& t : s.inputs) {
    std::cout << "  " << t.name << "  " << toString(t.dtype) << "[";
    for (std::size_t i = 0; i < t.shape.size(); ++i) std::cout << (i ? ", " : "") << t.shape[i];
    std::cout << "]  " << t.distribution.kind << "(" << t.distribution.a << ", " << t.distribution.b << ")\n";
  }
  std::cout << "outputs:\n";
  for (const auto& t : s.outputs) {
    const Tolerance& tol = s.tolerances.at(t.name);
    std::cout << "  " << t.name << "  " << toString(t.dtype) << "[";
    for (std::size_t i = 0; i < t.shape.size(); ++i) std::cout << (i ? ", " : "") << t.shape[i];
    std::cout << "]  rtol " << tol.rtol << "  atol " << tol.atol << "\n";
  }
  const std::int64_t flops = evalExpression(s.flops, s.axes);
  const std::int64_t bytes = evalExpression(s.minBytes, s.axes);
  std::cout << "flops: " << s.flops << " = " << humanCount(flops, "FLOP") << "\n"
            << "minBytes: " << s.minBytes << " = " << humanCount(bytes, "B") << "\n"
            << "arithmetic intensity: " << std::setprecision(4) << double(flops) / double(bytes) << " FLOP/B\n";
  if (!s.libraryReference.empty()) std::cout << "library reference: " << s.libraryReference << "\n";
  std::cout << "\ncandidate ABI:\n  " << kernelSignature(s, KernelRole::Candidate, s.entry) << "\n\n";
  printKernel("baseline", s.baseline, s);
  printKernel("oracle", s.oracle, s);
  return 0;
}

int import(const Options& opts) {
  if (opts.positional().size() != 1) throw UsageError("needs one NAME or FILE");
  const std::string project = opts.required("project");
  const std::string file = resolveSpecFile(opts.positional()[0]);
  std::string text = readTaskSpecText(file);
  try {
    parseTaskSpecText(text, file);  // an invalid spec is refused before the project is opened or created
  } catch (const TaskSpecError& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
  text = specTextAtAxes(opts, text, file);  // --axes: the task at that shape, a task of its own
  const bool created = !std::filesystem::exists(project);
  auto store = ProjectStore::openOrCreate(project);  // a concurrent creator's project is as good
  const TaskImport imported = importTaskSpec(*store, text, file);  // a different spec of the same name: TaskNameClash
  std::cout << (created ? "created " + project + "; " : "");
  if (imported.outcome == TaskImport::Outcome::Added)
    std::cout << "imported " << imported.name << " as task " << imported.id << " into " << project << "\n";
  else
    std::cout << imported.name << " is already task " << imported.id << " of " << project << " (the same spec)\n";
  return 0;
}

void defineTask(CLI::App& task) {
  task.footer("Task specs: an operator at given shapes and dtypes (resources/tasks/README.md).");
  CLI::App* validateCmd = task.add_subcommand("validate", "check task spec files; prints OK or the first error of each");
  addPositional(*validateCmd, "FILE", "a task spec file (any number)", 0);
  addAxesOption(*validateCmd);
  validateCmd->footer("Exit status: 0 every file is valid, 1 some file is not.");
  onRun(*validateCmd, validate);

  CLI::App* listCmd = task.add_subcommand("list", "the built-in tasks with their family, axes and library reference");
  onRun(*listCmd, [](const Options&) { return list(); });

  CLI::App* showCmd = task.add_subcommand("show", "a task's axes, tensors, figures, kernel ABI and launch rules");
  addPositional(*showCmd, "NAME|FILE", "a built-in task's name or a spec file");
  addFlag(*showCmd, "json", "print the spec as JSON");
  addAxesOption(*showCmd);
  onRun(*showCmd, show);

  CLI::App* importCmd = task.add_subcommand("import", "add a task to a project (created when missing)");
  addPositional(*importCmd, "NAME|FILE", "a built-in task's name or a spec file");
  addValued(*importCmd, "project", "P.crucible", "the project file (created when it does not exist)")->required();
  addAxesOption(*importCmd);
  importCmd->footer("A spec whose name the project has with a different spec is refused; the same spec again is "
                    "the task already there.");
  onRun(*importCmd, import);
}

const RegisterCommand kTask("task", {"task specs: validate FILE... | list | show NAME | import NAME|FILE --project P", defineTask});

}  // namespace
}  // namespace crucible::cli
