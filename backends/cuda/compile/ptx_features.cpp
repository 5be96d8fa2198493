// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/compile/ptx_features.h"

#include <algorithm>
#include <vector>

namespace crucible {
namespace {

// Size in bytes of a PTX fundamental type suffix ("f32", "b128", "f16x2"), 0 if not a type.
int typeBytes(std::string_view t) {
  static const std::map<std::string_view, int> kSizes = {
      {"b8", 1},   {"u8", 1},    {"s8", 1},    {"b16", 2},   {"u16", 2},  {"s16", 2},   {"f16", 2},
      {"bf16", 2}, {"b32", 4},   {"u32", 4},   {"s32", 4},   {"f32", 4},  {"f16x2", 4}, {"bf16x2", 4},
      {"b64", 8},  {"u64", 8},   {"s64", 8},   {"f64", 8},   {"b128", 16}};
  auto it = kSizes.find(t);
  return it == kSizes.end() ? 0 : it->second;
}

std::vector<std::string_view> splitDots(std::string_view opcode) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (start <= opcode.size()) {
    std::size_t dot = opcode.find('.', start);
    if (dot == std::string_view::npos) dot = opcode.size();
    parts.push_back(opcode.substr(start, dot - start));
    start = dot + 1;
  }
  return parts;
}

bool has(const std::vector<std::string_view>& parts, std::string_view p) {
  return std::find(parts.begin(), parts.end(), p) != parts.end();
}

bool startsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// A global or shared-memory load or store: counts, vector lanes and bytes per thread.
void countGlobalAccess(const std::vector<std::string_view>& parts, const std::string& base,
                       std::map<std::string, int>& out) {
  ++out[base];
  int lanes = 1;
  int elementBytes = 0;
  for (auto p : parts) {
    if (p == "v2") lanes = 2;
    else if (p == "v4") lanes = 4;
    else if (p == "v8") lanes = 8;
    else if (int b = typeBytes(p)) elementBytes = b;
  }
  if (lanes > 1) ++out[base + ".v" + std::to_string(lanes)];
  if (elementBytes > 0) ++out[base + "." + std::to_string(lanes * elementBytes) + "B"];
}

void countInstruction(std::string_view opcode, std::map<std::string, int>& out) {
  const auto parts = splitDots(opcode);
  const std::string_view op = parts.front();
  if (op == "ld" || op == "st") {
    if (has(parts, "global")) countGlobalAccess(parts, std::string(op) + ".global", out);
    else if (has(parts, "shared")) countGlobalAccess(parts, std::string(op) + ".shared", out);
  } else if (op == "mma") {
    ++out["mma"];
  } else if (op == "wmma") {
    if (has(parts, "mma")) ++out["wmma"];
  } else if (op == "ldmatrix" || op == "stmatrix" || op == "setmaxnreg") {
    ++out[std::string(op)];
  } else if (op == "wgmma") {
    if (parts.size() > 1 && parts[1] == "mma_async") ++out["wgmma"];
  } else if (op == "tcgen05") {
    if (parts.size() > 1 && parts[1] == "mma") ++out["tcgen05.mma"];
  } else if (op == "cp" && parts.size() > 1 && parts[1] == "async") {
    // Only the copies: commit_group / wait_group / wait_all / mbarrier arrivals move no data.
    if (parts.size() > 2 && parts[2] == "bulk") {
      const bool bookkeeping = parts.size() > 3 && (startsWith(parts[3], "commit") || startsWith(parts[3], "wait"));
      if (!bookkeeping && !(parts.size() > 3 && parts[3] == "prefetch")) {
        ++out["cp.async.bulk"];
        if (parts.size() > 3 && parts[3] == "tensor") ++out["cp.async.bulk.tensor"];
      }
    } else if (parts.size() > 2 && (parts[2] == "ca" || parts[2] == "cg")) {
      ++out["cp.async"];
    }
  } else if (op == "shfl") {
    ++out["shfl"];
  } else if (op == "atom" || op == "red") {
    ++out[std::string(op)];
  } else if (op == "bar" || op == "barrier") {
    if (has(parts, "sync")) ++out["bar.sync"];
  }
}

// The opcode of one statement: strips labels' braces and a guard predicate (@%p1, @!%p1).
std::string_view opcodeOf(std::string_view stmt) {
  auto skipSpace = [&] {
    while (!stmt.empty() && (stmt.front() == ' ' || stmt.front() == '\t' || stmt.front() == '{' ||
                             stmt.front() == '}' || stmt.front() == '\n' || stmt.front() == '\r'))
      stmt.remove_prefix(1);
  };
  skipSpace();
  if (!stmt.empty() && stmt.front() == '@') {
    auto end = stmt.find_first_of(" \t");
    if (end == std::string_view::npos) return {};
    stmt.remove_prefix(end);
    skipSpace();
  }
  auto end = stmt.find_first_of(" \t\r\n");
  return stmt.substr(0, end);
}

}  // namespace

std::map<std::string, int> scanPtxFeatures(std::string_view ptx) {
  std::map<std::string, int> out;
  std::size_t pos = 0;
  while (pos < ptx.size()) {
    std::size_t eol = ptx.find('\n', pos);
    if (eol == std::string_view::npos) eol = ptx.size();
    std::string_view line = ptx.substr(pos, eol - pos);
    pos = eol + 1;
    if (auto comment = line.find("//"); comment != std::string_view::npos) line = line.substr(0, comment);
    // Inline assembly may put several statements on one line.
    std::size_t s = 0;
    while (s < line.size()) {
      std::size_t semi = line.find(';', s);
      if (semi == std::string_view::npos) semi = line.size();
      std::string_view opcode = opcodeOf(line.substr(s, semi - s));
      if (!opcode.empty() && opcode.front() != '.' && opcode.back() != ':') countInstruction(opcode, out);
      s = semi + 1;
    }
  }
  return out;
}

}  // namespace crucible
