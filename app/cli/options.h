// SPDX-License-Identifier: GPL-3.0-or-later
// "--name value" and "--flag" parsing for crucible-cli subcommands, with
// errors that name the option. Strict: unknown options, arguments a command
// does not take, numbers with trailing junk, NaN, infinities and values out
// of range are all usage errors (exit_codes.h: ExitCode::Usage).
#pragma once
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

class Options {
public:
  // maxPositional: how many arguments that are not options the command takes;
  // one more is "unexpected argument '...'".
  Options(const std::vector<std::string>& args, const std::set<std::string>& valued, const std::set<std::string>& flags,
          std::size_t maxPositional = 0);
  bool has(const std::string& name) const { return values_.count(name) != 0; }
  bool flag(const std::string& name) const { return flags_.count(name) != 0; }
  std::string value(const std::string& name, const std::string& fallback = "") const;
  std::string required(const std::string& name) const;
  // Every value a repeatable option was given, in command-line order
  // (value() gives the last).
  std::vector<std::string> all(const std::string& name) const;
  // A whole number from min to max, digits only (an optional leading '-'):
  // "12abc", " 12", "+12" and "1e3" are refused.
  long long integer(const std::string& name, long long fallback,
                    long long min = std::numeric_limits<long long>::min(),
                    long long max = std::numeric_limits<long long>::max()) const;
  // A finite number from min to max ("nan", "inf" and trailing junk refused).
  double number(const std::string& name, double fallback, double min = std::numeric_limits<double>::lowest(),
                double max = std::numeric_limits<double>::max()) const;
  // A finite number above 0 and at most max, for limits where leaving the
  // option out means "no limit": 0 or less would silently mean that too, so
  // it is refused.
  double positiveNumber(const std::string& name, double fallback, double max = 1e9) const;
  const std::vector<std::string>& positional() const { return positional_; }
  // Every valued option as (name, value), in command-line order: for options
  // that pair with the one before them (`--kernel K.cu --tune K.tune.json`).
  const std::vector<std::pair<std::string, std::string>>& inOrder() const { return inOrder_; }
private:
  std::vector<std::pair<std::string, std::string>> inOrder_;
  std::map<std::string, std::string> values_;
  std::map<std::string, std::vector<std::string>> allValues_;
  std::set<std::string> flags_;
  std::vector<std::string> positional_;
};

// ---------------------------------------------------------------- starting kernels (`run`)

// `run --kernel K.cu [--tune K.tune.json] [--kernel K2.cu ...]`: the user's own
// kernels, evaluated first and tuned by the engine (resources/tasks/README.md,
// "Tunable kernels"). Both options are valued and repeatable.
inline const std::set<std::string> kStartingKernelOptions = {"kernel", "tune"};
inline constexpr const char* kStartingKernelHelp =
    "--kernel K.cu      a starting kernel of your own (repeatable): evaluated first, then tuned; it must have the\n"
    "                   task's kernel signature. Its parameters and launch rule come from --tune, else from\n"
    "                   K.tune.json beside it, else from a /* crucible-tune {...} */ comment in K.cu\n"
    "--tune FILE.json   the tune file of the --kernel before it: parameters, restrictions, launch rule";

// One --kernel and the --tune that follows it (before the next --kernel); tune is "" when none does.
struct KernelOption {
  std::string kernel;
  std::string tune;
};
// Throws UsageError for a --tune before any --kernel or a second --tune for one kernel.
std::vector<KernelOption> kernelOptions(const Options& o);

}  // namespace crucible::cli
