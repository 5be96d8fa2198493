// SPDX-License-Identifier: GPL-3.0-or-later
// "--name value" and "--flag" parsing for crucible-cli subcommands, with
// errors that name the option.
#pragma once
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace crucible::cli {

class Options {
public:
  Options(const std::vector<std::string>& args, const std::set<std::string>& valued, const std::set<std::string>& flags);
  bool has(const std::string& name) const { return values_.count(name) != 0; }
  bool flag(const std::string& name) const { return flags_.count(name) != 0; }
  std::string value(const std::string& name, const std::string& fallback = "") const;
  std::string required(const std::string& name) const;
  // Every value a repeatable option was given, in command-line order
  // (value() gives the last).
  std::vector<std::string> all(const std::string& name) const;
  long long integer(const std::string& name, long long fallback) const;
  double number(const std::string& name, double fallback) const;
  const std::vector<std::string>& positional() const { return positional_; }
private:
  std::map<std::string, std::string> values_;
  std::map<std::string, std::vector<std::string>> allValues_;
  std::set<std::string> flags_;
  std::vector<std::string> positional_;
};

}  // namespace crucible::cli
