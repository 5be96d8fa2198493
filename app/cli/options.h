// SPDX-License-Identifier: GPL-3.0-or-later
// crucible-cli's command lines are CLI11 apps (one subcommand per command,
// its options declared once, with their help, in its cmd_*.cpp). This file
// holds what every command shares on top of CLI11: the ways to declare an
// option, the strict number checks CLI11 runs while it parses, and Options,
// the parsed values of one (sub)command by name.
// Strict: unknown options, arguments a command does not take, numbers with
// trailing junk, NaN, infinities and values out of range are all usage
// errors (exit_codes.h: ExitCode::Usage) whose message names the option.
#pragma once
#include <CLI/CLI.hpp>

#include <cstddef>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace crucible::cli {

// The command line is wrong; main() prints it and exits with ExitCode::Usage.
class UsageError : public std::invalid_argument {
public:
  using std::invalid_argument::invalid_argument;
};

// ---------------------------------------------------------------- declaring options

// `--name VALUE` (a later one replaces an earlier one); `type` is the word
// --help shows for the value (P.crucible, N, SECONDS).
CLI::Option* addValued(CLI::App& app, const std::string& name, const std::string& type, const std::string& help);
// `--name VALUE`, repeatable: every value kept in command-line order (Options::all, Options::inOrder).
CLI::Option* addRepeatable(CLI::App& app, const std::string& name, const std::string& type, const std::string& help);
// `--name`, no value (`--name=x` is refused).
CLI::Option* addFlag(CLI::App& app, const std::string& name, const std::string& help);
// Arguments that are not options: `most` of them at most (a further one is
// "unexpected argument '...'"; 0: any number), none required by CLI11 (the
// command says what it misses).
CLI::Option* addPositional(CLI::App& app, const std::string& name, const std::string& help,
                           int most = 1);

// Checks CLI11 runs on a value as it parses (option->check(...)). Each throws
// UsageError naming the option, so the messages are the same wherever the
// option is (e.g. "--budget must be at least 1, not 0").
// A whole number from min to max, digits only (an optional leading '-'):
// "12abc", " 12", "+12", "0x10" and "1e3" are refused.
CLI::Validator wholeNumber(const std::string& option, long long min = std::numeric_limits<long long>::min(),
                           long long max = std::numeric_limits<long long>::max());
// A finite number from min to max ("nan", "inf" and trailing junk refused).
CLI::Validator finiteNumber(const std::string& option, double min = std::numeric_limits<double>::lowest(),
                            double max = std::numeric_limits<double>::max());
// A finite number above 0 and at most max, for limits where leaving the
// option out means "no limit": 0 or less would silently mean that too, so
// it is refused.
CLI::Validator positiveLimit(const std::string& option, double max = 1e9);
// One of `choices` (`--format json|csv`).
CLI::Validator oneOf(const std::string& option, const std::vector<std::string>& choices);

// The same checks on a text, for values read outside CLI11 (and the validators' work).
long long parseWholeNumber(const std::string& option, const std::string& text,
                           long long min = std::numeric_limits<long long>::min(),
                           long long max = std::numeric_limits<long long>::max());
double parseFiniteNumber(const std::string& option, const std::string& text,
                         double min = std::numeric_limits<double>::lowest(),
                         double max = std::numeric_limits<double>::max());
double parsePositiveLimit(const std::string& option, const std::string& text, double max = 1e9);

// A CLI11 parse error in crucible-cli's words where they are clearer
// ("unknown option --x", "unexpected argument 'x'", "missing --project"),
// CLI11's own otherwise (it names the option). `app` is the top-level app
// that was parsed.
std::string usageMessage(const CLI::ParseError& e, const CLI::App& app);

// ---------------------------------------------------------------- reading them

// The values one parsed (sub)command was given, by option name without "--".
class Options {
public:
  // From a parsed CLI11 (sub)command.
  explicit Options(const CLI::App& parsed);
  // Declares `valued` (repeatable) and `flags` on a scratch app and parses
  // args with it: the same rules as a command's (UsageError with
  // usageMessage's words). For tests and small helpers.
  Options(const std::vector<std::string>& args, const std::set<std::string>& valued, const std::set<std::string>& flags,
          std::size_t maxPositional = 0);

  bool has(const std::string& name) const { return values_.count(name) != 0; }
  bool flag(const std::string& name) const { return flags_.count(name) != 0; }
  std::string value(const std::string& name, const std::string& fallback = "") const;
  // For options required only in some cases (declared ones CLI11 checks): "missing --name".
  std::string required(const std::string& name) const;
  // Every value a repeatable option was given, in command-line order
  // (value() gives the last).
  std::vector<std::string> all(const std::string& name) const;
  // The value as a number, or fallback when the option is not given. The
  // declaration's check (wholeNumber ...) ran when it was parsed; min and
  // max here are for values that no check declared.
  long long integer(const std::string& name, long long fallback,
                    long long min = std::numeric_limits<long long>::min(),
                    long long max = std::numeric_limits<long long>::max()) const;
  double number(const std::string& name, double fallback, double min = std::numeric_limits<double>::lowest(),
                double max = std::numeric_limits<double>::max()) const;
  double positiveNumber(const std::string& name, double fallback, double max = 1e9) const;
  const std::vector<std::string>& positional() const { return positional_; }
  // Every valued option as (name, value), in command-line order: for options
  // that pair with the one before them (`--kernel K.cu --tune K.tune.json`).
  const std::vector<std::pair<std::string, std::string>>& inOrder() const { return inOrder_; }

private:
  std::vector<std::pair<std::string, std::string>> inOrder_;
  std::map<std::string, std::vector<std::string>> values_;
  std::set<std::string> flags_;
  std::vector<std::string> positional_;
};

// ---------------------------------------------------------------- starting kernels (`run`)

// `run --kernel K.cu [--tune K.tune.json] [--kernel K2.cu ...]`: the user's own
// kernels, evaluated first and tuned by the engine (resources/tasks/README.md,
// "Tunable kernels"). Both options are valued and repeatable.
void addStartingKernelOptions(CLI::App& app);

// One --kernel and the --tune that follows it (before the next --kernel); tune is "" when none does.
struct KernelOption {
  std::string kernel;
  std::string tune;
};
// Throws UsageError for a --tune before any --kernel or a second --tune for one kernel.
std::vector<KernelOption> kernelOptions(const Options& o);

}  // namespace crucible::cli
