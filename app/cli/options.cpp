// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/options.h"

namespace crucible::cli {

Options::Options(const std::vector<std::string>& args, const std::set<std::string>& valued,
                 const std::set<std::string>& flags) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.rfind("--", 0) != 0) {
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
      flags_.insert(name);
    } else if (valued.count(name)) {
      if (!inlineValue) {
        if (i + 1 >= args.size()) throw std::invalid_argument("--" + name + " needs a value");
        val = args[++i];
      }
      values_[name] = val;
      allValues_[name].push_back(val);
    } else {
      throw std::invalid_argument("unknown option --" + name);
    }
  }
}

std::string Options::value(const std::string& name, const std::string& fallback) const {
  auto it = values_.find(name);
  return it == values_.end() ? fallback : it->second;
}

std::string Options::required(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) throw std::invalid_argument("missing --" + name);
  return it->second;
}

std::vector<std::string> Options::all(const std::string& name) const {
  auto it = allValues_.find(name);
  return it == allValues_.end() ? std::vector<std::string>{} : it->second;
}

long long Options::integer(const std::string& name, long long fallback) const {
  if (!has(name)) return fallback;
  try {
    std::size_t used = 0;
    long long v = std::stoll(value(name), &used);
    if (used != value(name).size()) throw std::invalid_argument("");
    return v;
  } catch (const std::exception&) {
    throw std::invalid_argument("--" + name + " must be an integer, not '" + value(name) + "'");
  }
}

double Options::number(const std::string& name, double fallback) const {
  if (!has(name)) return fallback;
  try {
    std::size_t used = 0;
    double v = std::stod(value(name), &used);
    if (used != value(name).size()) throw std::invalid_argument("");
    return v;
  } catch (const std::exception&) {
    throw std::invalid_argument("--" + name + " must be a number, not '" + value(name) + "'");
  }
}

}  // namespace crucible::cli
