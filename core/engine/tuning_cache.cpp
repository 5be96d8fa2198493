// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/engine/tuning_cache.h"

#include <cstdio>

namespace crucible {

std::uint64_t fnv1a64(const std::string& bytes) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

std::string withoutCommentLines(const std::string& source) {
  std::string code;
  code.reserve(source.size());
  std::size_t start = 0;
  while (start < source.size()) {
    std::size_t end = source.find('\n', start);
    if (end == std::string::npos) end = source.size();
    const std::size_t first = source.find_first_not_of(" \t", start);
    const bool comment = first != std::string::npos && first + 1 < end && source[first] == '/' && source[first + 1] == '/';
    if (!comment) code.append(source, start, end - start).push_back('\n');
    start = end + 1;
  }
  return code;
}

std::string configKey(const std::string& architectureKey, const ParameterPoint& parameters,
                      const std::string& source) {
  std::string key = architectureKey;
  key += '|';
  bool first = true;
  for (const auto& [name, value] : parameters) {
    if (!first) key += ',';
    first = false;
    key += name;
    key += '=';
    key += std::to_string(value);
  }
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(fnv1a64(withoutCommentLines(source))));
  key += '|';
  key += hash;
  return key;
}

}  // namespace crucible
