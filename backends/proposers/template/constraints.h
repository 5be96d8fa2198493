// SPDX-License-Identifier: GPL-3.0-or-later
// Hardware limits the template genomes are checked against (sm_90, H100/H200),
// and small helpers that phrase a violated constraint.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace crucible::templates {

inline constexpr std::int64_t kMaxThreadsPerBlock = 1024;
inline constexpr std::int64_t kMaxSmemPerBlock = 227 * 1024;     // opt-in dynamic shared memory
inline constexpr std::int64_t kMaxStaticSmem = 48 * 1024;        // without the opt-in attribute
inline constexpr std::int64_t kRegistersPerSm = 64 * 1024;
inline constexpr std::int64_t kMaxRegistersPerThread = 255;
inline constexpr std::int64_t kMaxGridY = 65535;
inline constexpr std::int64_t kWarp = 32;

// Collects the reasons a genome is illegal, each phrased for a human.
class Violations {
public:
  void require(bool ok, const char* reason) {
    if (!ok) list_.emplace_back(reason);
  }
  void add(std::string reason) { list_.push_back(std::move(reason)); }
  // The message is built only on failure: legality checks run over whole parameter grids.
  void divisible(std::int64_t value, const char* valueName, std::int64_t by, const char* byName) {
    if (by > 0 && value % by == 0) return;
    list_.push_back(std::string(valueName) + " (" + std::to_string(value) + ") must be divisible by " + byName +
                    " (" + std::to_string(by) + ")");
  }
  void atMost(std::int64_t value, const char* valueName, std::int64_t limit, const char* limitName) {
    if (value <= limit) return;
    list_.push_back(std::string(valueName) + " (" + std::to_string(value) + ") exceeds " + limitName + " (" +
                    std::to_string(limit) + ")");
  }
  bool empty() const { return list_.empty(); }
  std::vector<std::string> take() { return std::move(list_); }

private:
  std::vector<std::string> list_;
};

inline std::int64_t ceilDiv(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }
inline bool isPowerOfTwo(std::int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

}  // namespace crucible::templates
