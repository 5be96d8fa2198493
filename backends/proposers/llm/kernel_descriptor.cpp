// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/proposers/llm/kernel_descriptor.h"

#include <cctype>

namespace crucible::llm {
namespace {

bool isIdentifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

int feature(const CompileReport& r, const std::string& key) {
  const auto it = r.features.find(key);
  return it == r.features.end() ? 0 : it->second;
}

bool mentions(const std::string& code, const char* what) { return code.find(what) != std::string::npos; }

std::map<std::string, std::string> fromPtx(const CompileReport& r) {
  std::map<std::string, std::string> d;
  if (feature(r, "cp.async.bulk") > 0) d["memory"] = "tma";
  else if (feature(r, "cp.async") > 0) d["memory"] = "cp_async";
  else if (feature(r, "ld.shared") + feature(r, "st.shared") > 0 || r.staticSmemBytes > 0) d["memory"] = "smem";
  else d["memory"] = "global";

  if (feature(r, "tcgen05.mma") > 0) d["tensor_core"] = "tcgen05";
  else if (feature(r, "wgmma") > 0) d["tensor_core"] = "wgmma";
  else if (feature(r, "mma") > 0) d["tensor_core"] = "mma";
  else if (feature(r, "wmma") > 0) d["tensor_core"] = "wmma";
  else d["tensor_core"] = "none";

  std::string widest = "4";  // a kernel with no sized global access (all through TMA, say)
  for (const char* bytes : {"1", "2", "4", "8", "16", "32"})
    if (feature(r, std::string("ld.global.") + bytes + "B") + feature(r, std::string("st.global.") + bytes + "B") > 0)
      widest = bytes;
  d["vector_bytes"] = widest;

  if (feature(r, "shfl") > 0) d["reduction"] = "shuffle";
  else if (feature(r, "atom") + feature(r, "red") > 0) d["reduction"] = "atomic";
  else d["reduction"] = "none";
  return d;
}

std::map<std::string, std::string> fromSource(const std::string& source) {
  const std::string code = normalisedSource(source);  // comments cannot fake a feature
  std::map<std::string, std::string> d;
  if (mentions(code, "cp.async.bulk") || mentions(code, "CUtensorMap")) d["memory"] = "tma";
  else if (mentions(code, "cp.async") || mentions(code, "__pipeline_memcpy_async") || mentions(code, "memcpy_async"))
    d["memory"] = "cp_async";
  else if (mentions(code, "__shared__")) d["memory"] = "smem";
  else d["memory"] = "global";

  if (mentions(code, "tcgen05.mma")) d["tensor_core"] = "tcgen05";
  else if (mentions(code, "wgmma.mma_async")) d["tensor_core"] = "wgmma";
  else if (mentions(code, "mma.sync")) d["tensor_core"] = "mma";
  else if (mentions(code, "wmma::mma_sync")) d["tensor_core"] = "wmma";
  else d["tensor_core"] = "none";

  if (mentions(code, "float4") || mentions(code, "int4") || mentions(code, "uint4") || mentions(code, "double2") ||
      mentions(code, ".v4.f32") || mentions(code, ".v4.b32"))
    d["vector_bytes"] = "16";
  else if (mentions(code, "float2") || mentions(code, "int2") || mentions(code, "uint2") || mentions(code, "__half2") ||
           mentions(code, "__nv_bfloat162"))
    d["vector_bytes"] = mentions(code, "float2") || mentions(code, "int2") ? "8" : "4";
  else d["vector_bytes"] = "4";

  if (mentions(code, "__shfl")) d["reduction"] = "shuffle";
  else if (mentions(code, "atomic")) d["reduction"] = "atomic";
  else d["reduction"] = "none";
  return d;
}

}  // namespace

std::map<std::string, std::string> describeKernel(const std::string& source, const std::optional<CompileReport>& report) {
  if (report && report->ok && !report->features.empty()) return fromPtx(*report);
  return fromSource(source);
}

std::string normalisedSource(const std::string& source) {
  std::string out;
  out.reserve(source.size());
  bool pendingSpace = false;
  bool atLineStart = true;  // only whitespace so far on this line
  bool inDirective = false; // a preprocessor line: its end is kept ("#define A 1" must not swallow the next line)
  const std::size_t n = source.size();
  for (std::size_t i = 0; i < n; ++i) {
    const char c = source[i];
    if (c == '/' && i + 1 < n && source[i + 1] == '/') {
      while (i + 1 < n && source[i + 1] != '\n') ++i;
      pendingSpace = true;
      continue;
    }
    if (c == '/' && i + 1 < n && source[i + 1] == '*') {
      const std::size_t end = source.find("*/", i + 2);
      i = end == std::string::npos ? n : end + 1;
      pendingSpace = true;
      continue;
    }
    if (c == '\n') {
      if (inDirective) {
        out += '\n';
        inDirective = false;
        pendingSpace = false;
      } else {
        pendingSpace = true;
      }
      atLineStart = true;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      pendingSpace = true;
      continue;
    }
    if (c == '#' && atLineStart) {
      if (!out.empty() && out.back() != '\n') out += '\n';
      inDirective = true;
      pendingSpace = false;
    }
    atLineStart = false;
    if (pendingSpace && !out.empty() && isIdentifierChar(out.back()) && isIdentifierChar(c)) out += ' ';
    pendingSpace = false;
    if (c == '"' || c == '\'') {
      std::size_t j = i + 1;
      while (j < n && source[j] != c && source[j] != '\n') j += source[j] == '\\' ? 2 : 1;
      const std::size_t end = std::min(j, n - 1);
      out.append(source, i, end - i + 1);
      i = end;
      if (source[end] == '\n') {  // an unterminated literal: its line ends here
        atLineStart = true;
        inDirective = false;
      }
      continue;
    }
    out += c;
  }
  return out;
}

}  // namespace crucible::llm
