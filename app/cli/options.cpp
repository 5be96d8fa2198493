// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/options.h"

#include <charconv>
#include <cmath>
#include <sstream>

namespace crucible::cli {
namespace {

std::string shown(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

std::string bare(const std::string& option) { return option.rfind("--", 0) == 0 ? option.substr(2) : option; }

// The deepest (sub)command the command line chose: where extras were left.
const CLI::App& chosen(const CLI::App& app) {
  const CLI::App* at = &app;
  for (;;) {
    const auto subs = at->get_subcommands();
    if (subs.empty()) return *at;
    at = subs.front();
  }
}

}  // namespace

// ---------------------------------------------------------------- declaring

CLI::Option* addValued(CLI::App& app, const std::string& name, const std::string& type, const std::string& help) {
  return app.add_option("--" + name)
      ->description(help)
      ->type_name(type)
      ->expected(1)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
}

CLI::Option* addRepeatable(CLI::App& app, const std::string& name, const std::string& type, const std::string& help) {
  return app.add_option("--" + name)
      ->description(help + " (repeatable)")
      ->type_name(type)
      ->expected(1)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

CLI::Option* addFlag(CLI::App& app, const std::string& name, const std::string& help) {
  return app.add_flag("--" + name, help)->disable_flag_override()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
}

CLI::Option* addPositional(CLI::App& app, const std::string& name, const std::string& help, int most) {
  CLI::Option* o = app.add_option(name)->description(help)->type_name("")->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  // CLI11 fills a positional while it has fewer than its expected count (or takes any number).
  if (most <= 0) return o->expected(0, CLI::detail::expected_max_vector_size)->allow_extra_args(true);
  return o->expected(most);
}

// ---------------------------------------------------------------- checking

long long parseWholeNumber(const std::string& option, const std::string& text, long long min, long long max) {
  const std::string name = bare(option);
  long long v = 0;
  // from_chars: no leading blanks or '+', no base prefixes, and it says where it stopped.
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  const bool outOfRange = ec == std::errc::result_out_of_range || (ec == std::errc() && (v < min || v > max));
  if (!outOfRange && (ec != std::errc() || end != text.data() + text.size() || text.empty()))
    throw UsageError("--" + name + " must be a whole number, not '" + text + "'");
  if (outOfRange) {
    constexpr long long kLeast = std::numeric_limits<long long>::min(), kMost = std::numeric_limits<long long>::max();
    const std::string range = max == kMost   ? "at least " + std::to_string(min)
                              : min == kLeast ? "at most " + std::to_string(max)
                                              : "from " + std::to_string(min) + " to " + std::to_string(max);
    throw UsageError("--" + name + " must be " + range + ", not " + text);
  }
  return v;
}

double parseFiniteNumber(const std::string& option, const std::string& text, double min, double max) {
  const std::string name = bare(option);
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty() || !std::isfinite(v))
    throw UsageError("--" + name + " must be a finite number, not '" + text + "'");
  if (v < min || v > max) {
    constexpr double kLeast = std::numeric_limits<double>::lowest(), kMost = std::numeric_limits<double>::max();
    const std::string range = max == kMost   ? "at least " + shown(min)
                              : min == kLeast ? "at most " + shown(max)
                                              : "from " + shown(min) + " to " + shown(max);
    throw UsageError("--" + name + " must be " + range + ", not " + text);
  }
  return v;
}

double parsePositiveLimit(const std::string& option, const std::string& text, double max) {
  const std::string name = bare(option);
  const double v = parseFiniteNumber(name, text);
  if (!(v > 0)) throw UsageError("--" + name + " must be more than 0, not " + text + " (leave it out for no limit)");
  if (v > max) throw UsageError("--" + name + " must be at most " + shown(max) + ", not " + text);
  return v;
}

// The validators throw UsageError themselves (CLI11 lets any exception but its
// own ValidationError through), so the message is ours, not "--x: ...".
CLI::Validator wholeNumber(const std::string& option, long long min, long long max) {
  constexpr long long kLeast = std::numeric_limits<long long>::min(), kMost = std::numeric_limits<long long>::max();
  const std::string range = max == kMost   ? (min == kLeast ? "" : ">=" + std::to_string(min))
                            : min == kLeast ? "<=" + std::to_string(max)
                                            : std::to_string(min) + ".." + std::to_string(max);
  return CLI::Validator(
      [option, min, max](std::string& text) {
        parseWholeNumber(option, text, min, max);
        return std::string();
      },
      range);
}

CLI::Validator finiteNumber(const std::string& option, double min, double max) {
  return CLI::Validator(
      [option, min, max](std::string& text) {
        parseFiniteNumber(option, text, min, max);
        return std::string();
      },
      "");
}

CLI::Validator positiveLimit(const std::string& option, double max) {
  return CLI::Validator(
      [option, max](std::string& text) {
        parsePositiveLimit(option, text, max);
        return std::string();
      },
      ">0");
}

CLI::Validator oneOf(const std::string& option, const std::vector<std::string>& choices) {
  std::string list;
  for (std::size_t i = 0; i < choices.size(); ++i)
    list += (i == 0 ? "" : i + 1 == choices.size() ? " or " : ", ") + choices[i];
  return CLI::Validator(
      [option, choices, list](std::string& text) {
        for (const auto& c : choices)
          if (c == text) return std::string();
        throw UsageError("--" + bare(option) + " must be " + list + ", not '" + text + "'");
      },
      "");
}

std::string usageMessage(const CLI::ParseError& e, const CLI::App& app) {
  if (dynamic_cast<const CLI::ExtrasError*>(&e)) {
    const std::vector<std::string> extras = chosen(app).remaining();
    if (!extras.empty()) {
      const std::string& first = extras.front();
      if (first.size() > 1 && first[0] == '-') return "unknown option " + first.substr(0, first.find('='));
      return "unexpected argument '" + first + "'";
    }
  }
  const std::string text = e.what();
  const std::string override = " was given a disallowed flag override";  // `--json=yes`
  if (text.size() > override.size() && text.compare(text.size() - override.size(), override.size(), override) == 0)
    return "--" + bare(text.substr(0, text.size() - override.size())) + " takes no value";
  if (dynamic_cast<const CLI::RequiredError*>(&e) && text.rfind("A subcommand", 0) == 0) {
    std::string names;
    for (const CLI::App* sub : const_cast<CLI::App&>(chosen(app)).get_subcommands([](CLI::App*) { return true; }))
      names += (names.empty() ? "" : ", ") + sub->get_name();
    return "needs a subcommand: " + names;
  }
  const std::string missing = " missing", colon = ": ";  // "--project: 1 required VALUE missing"
  if (text.rfind("--", 0) == 0 && text.find(": 1 required ") != std::string::npos && text.size() > missing.size() &&
      text.compare(text.size() - missing.size(), missing.size(), missing) == 0)
    return text.substr(0, text.find(colon)) + " needs a value";
  const std::string required = " is required";
  if (dynamic_cast<const CLI::RequiredError*>(&e) && text.rfind("--", 0) == 0 && text.size() > required.size() &&
      text.compare(text.size() - required.size(), required.size(), required) == 0)
    return "missing " + text.substr(0, text.size() - required.size());
  return text;
}

// ---------------------------------------------------------------- reading

Options::Options(const CLI::App& parsed) {
  std::map<const CLI::Option*, std::string> names;
  for (const CLI::Option* opt : parsed.get_options()) {
    if (opt == parsed.get_help_ptr() || opt->count() == 0) continue;
    if (opt->get_positional()) {
      positional_.insert(positional_.end(), opt->results().begin(), opt->results().end());
      continue;
    }
    const std::string name = opt->get_lnames().empty() ? opt->get_name() : opt->get_lnames().front();
    if (opt->get_expected_max() == 0) {
      flags_.insert(name);
      continue;
    }
    names[opt] = name;
    values_[name] = opt->results();
  }
  // parse_order() has each valued option once per time it was given.
  std::map<const CLI::Option*, std::size_t> next;
  for (const CLI::Option* opt : parsed.parse_order()) {
    const auto name = names.find(opt);
    if (name == names.end()) continue;
    const std::size_t i = next[opt]++;
    if (i < opt->results().size()) inOrder_.emplace_back(name->second, opt->results()[i]);
  }
}

Options::Options(const std::vector<std::string>& args, const std::set<std::string>& valued,
                 const std::set<std::string>& flags, std::size_t maxPositional) {
  CLI::App app;
  app.set_help_flag();
  for (const auto& name : valued) addRepeatable(app, name, "VALUE", name);
  for (const auto& name : flags) addFlag(app, name, name);
  if (maxPositional > 0) addPositional(app, "ARGS", "arguments", static_cast<int>(maxPositional));
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them last first
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    throw UsageError(usageMessage(e, app));
  }
  *this = Options(static_cast<const CLI::App&>(app));
}

std::string Options::value(const std::string& name, const std::string& fallback) const {
  auto it = values_.find(name);
  return it == values_.end() || it->second.empty() ? fallback : it->second.back();
}

std::string Options::required(const std::string& name) const {
  if (!has(name)) throw UsageError("missing --" + name);
  return value(name);
}

std::vector<std::string> Options::all(const std::string& name) const {
  auto it = values_.find(name);
  return it == values_.end() ? std::vector<std::string>{} : it->second;
}

long long Options::integer(const std::string& name, long long fallback, long long min, long long max) const {
  return has(name) ? parseWholeNumber(name, value(name), min, max) : fallback;
}

double Options::number(const std::string& name, double fallback, double min, double max) const {
  return has(name) ? parseFiniteNumber(name, value(name), min, max) : fallback;
}

double Options::positiveNumber(const std::string& name, double fallback, double max) const {
  return has(name) ? parsePositiveLimit(name, value(name), max) : fallback;
}

// ---------------------------------------------------------------- starting kernels

void addStartingKernelOptions(CLI::App& app) {
  addRepeatable(app, "kernel", "K.cu",
                "a starting kernel of your own: evaluated first, then tuned; it must have the task's kernel "
                "signature. Its parameters and launch rule come from --tune, else from K.tune.json beside it, else "
                "from a /* crucible-tune {...} */ comment in K.cu");
  addRepeatable(app, "tune", "FILE.json", "the tune file of the --kernel before it: parameters, restrictions, launch rule");
}

std::vector<KernelOption> kernelOptions(const Options& o) {
  std::vector<KernelOption> out;
  for (const auto& [name, value] : o.inOrder()) {
    if (name == "kernel") {
      if (value.empty()) throw UsageError("--kernel needs a file name");
      out.push_back({value, ""});
    } else if (name == "tune") {
      if (out.empty()) throw UsageError("--tune " + value + " comes before any --kernel (write --kernel K.cu --tune " + value + ")");
      if (!out.back().tune.empty())
        throw UsageError("--kernel " + out.back().kernel + " has two --tune files (" + out.back().tune + ", " + value + ")");
      if (value.empty()) throw UsageError("--tune needs a file name");
      out.back().tune = value;
    }
  }
  return out;
}

}  // namespace crucible::cli
