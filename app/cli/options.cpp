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

}  // namespace

Options::Options(const std::vector<std::string>& args, const std::set<std::string>& valued,
                 const std::set<std::string>& flags, std::size_t maxPositional) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.rfind("--", 0) != 0) {
      if (positional_.size() >= maxPositional) throw UsageError("unexpected argument '" + a + "'");
      positional_.push_back(a);
      continue;
    }
    std::string name = a.substr(2), val;
    const bool inlineValue = name.find('=') != std::string::npos;
    if (inlineValue) {
      val = name.substr(name.find('=') + 1);
      name = name.substr(0, name.find('='));
    }
    if (flags.count(name)) {
      if (inlineValue) throw UsageError("--" + name + " takes no value");
      flags_.insert(name);
    } else if (valued.count(name)) {
      if (!inlineValue) {
        if (i + 1 >= args.size()) throw UsageError("--" + name + " needs a value");
        val = args[++i];
      }
      values_[name] = val;
      allValues_[name].push_back(val);
      inOrder_.emplace_back(name, val);
    } else {
      throw UsageError("unknown option --" + name);
    }
  }
}

std::string Options::value(const std::string& name, const std::string& fallback) const {
  auto it = values_.find(name);
  return it == values_.end() ? fallback : it->second;
}

std::string Options::required(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) throw UsageError("missing --" + name);
  return it->second;
}

std::vector<std::string> Options::all(const std::string& name) const {
  auto it = allValues_.find(name);
  return it == allValues_.end() ? std::vector<std::string>{} : it->second;
}

long long Options::integer(const std::string& name, long long fallback, long long min, long long max) const {
  if (!has(name)) return fallback;
  const std::string text = value(name);
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

double Options::number(const std::string& name, double fallback, double min, double max) const {
  if (!has(name)) return fallback;
  const std::string text = value(name);
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

double Options::positiveNumber(const std::string& name, double fallback, double max) const {
  const double v = number(name, fallback);
  if (!has(name)) return v;
  if (!(v > 0))
    throw UsageError("--" + name + " must be more than 0, not " + value(name) + " (leave it out for no limit)");
  if (v > max) throw UsageError("--" + name + " must be at most " + shown(max) + ", not " + value(name));
  return v;
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
