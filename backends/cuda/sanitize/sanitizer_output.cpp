// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/sanitize/sanitizer_output.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <optional>
#include <sstream>
#include "core/io/utf8_text.h"

namespace crucible {
namespace {

constexpr const char* kPrefix = "=========";

bool startsWith(const std::string& s, const std::string& p) { return s.compare(0, p.size(), p) == 0; }

bool startsWithNoCase(const std::string& s, const std::string& p) {
  if (s.size() < p.size()) return false;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(s[i])) != std::tolower(static_cast<unsigned char>(p[i]))) return false;
  return true;
}

bool containsNoCase(const std::string& s, const std::string& needle) {
  auto it = std::search(s.begin(), s.end(), needle.begin(), needle.end(),
                        [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) ==
                                                    std::tolower(static_cast<unsigned char>(b)); });
  return it != s.end();
}

// Whether the head line of a report block is a finding. Head lines start
// right after the prefix and one space; their details are indented further.
// Everything the tools report as wrong starts with one of these; the summary
// count and the error exit code catch a kind this list does not know.
bool isFinding(const std::string& head) {
  static const char* const kinds[] = {
      "Invalid ",                  // memcheck: Invalid __global__ / __shared__ / __local__ read or write
      "Misaligned",                // memcheck
      "Out-of-range",              // memcheck: shared or local address out of range
      "Illegal",                   // memcheck: hardware exceptions (illegal address, instruction)
      "Warp ",                     // memcheck: warp-level hardware exceptions
      "Lane ",                     // memcheck: lane-level hardware exceptions
      "Hardware",                  // memcheck: hardware stack overflow and the like
      "Malloc",                    // memcheck: device heap misuse
      "Free",
      "Uninitialized",             // initcheck: read of device memory nothing wrote
      "Barrier error",             // synccheck: divergent or misused barriers
      "Program hit",               // a CUDA API call that failed
      "Error",                     // racecheck's "Error: Race reported ..."/"ERROR: Potential RAW hazard ...",
                                   // and the tool's own "Error: ..." (the target never ran under it)
  };
  for (const char* k : kinds)
    if (startsWithNoCase(head, k)) return true;
  return containsNoCase(head, "hazard detected") || containsNoCase(head, "race reported");
}

// A scanner over one line (no std::regex: the log is the tools' text about a
// kernel that may be hostile, and counts may be any length).
struct Scan {
  const std::string& s;
  std::size_t at = 0;
  void spaces() {
    while (at < s.size() && std::isspace(static_cast<unsigned char>(s[at]))) ++at;
  }
  bool word(const std::string& w) {
    if (s.compare(at, w.size(), w) != 0) return false;
    at += w.size();
    return true;
  }
  // Digits, saturating at INT_MAX.
  std::optional<int> number() {
    const std::size_t start = at;
    long long v = 0;
    while (at < s.size() && std::isdigit(static_cast<unsigned char>(s[at]))) {
      v = std::min<long long>(v * 10 + (s[at] - '0'), std::numeric_limits<int>::max());
      ++at;
    }
    if (at == start) return std::nullopt;
    return static_cast<int>(v);
  }
};

// "<label> N <unit>..." anywhere in the line: N, or nothing.
std::optional<int> countAfter(const std::string& line, const std::string& label, const std::string& unit) {
  for (std::size_t from = line.find(label); from != std::string::npos; from = line.find(label, from + 1)) {
    Scan sc{line, from + label.size()};
    sc.spaces();
    const std::optional<int> n = sc.number();
    const std::size_t before = sc.at;
    sc.spaces();
    if (n && sc.at > before && sc.word(unit)) return n;
  }
  return std::nullopt;
}

// "(E error[s], W warning[s])" anywhere in the line: E + W, or nothing.
std::optional<int> raceCounts(const std::string& line) {
  for (std::size_t from = line.find('('); from != std::string::npos; from = line.find('(', from + 1)) {
    Scan sc{line, from + 1};
    sc.spaces();
    const std::optional<int> errors = sc.number();
    sc.spaces();
    if (!errors || !sc.word("error")) continue;
    sc.word("s");
    if (!sc.word(",")) continue;
    sc.spaces();
    const std::optional<int> warnings = sc.number();
    sc.spaces();
    if (!warnings || !sc.word("warning")) continue;
    sc.word("s");
    sc.spaces();
    if (sc.word(")")) return static_cast<int>(std::min<long long>(static_cast<long long>(*errors) + *warnings,
                                                                   std::numeric_limits<int>::max()));
  }
  return std::nullopt;
}

}  // namespace

SanitizerLog parseSanitizerLog(const std::string& text) {
  SanitizerLog log;
  std::istringstream lines(text);
  bool inRaceSummary = false;   // the "(E errors, W warnings)" may wrap onto the next line
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!startsWith(line, kPrefix)) continue;
    std::string rest = line.substr(std::string(kPrefix).size());
    if (const auto n = countAfter(rest, "ERROR SUMMARY:", "error")) {
      log.errorSummary = std::max(log.errorSummary.value_or(0), *n);
      inRaceSummary = false;
      continue;
    }
    if (const auto n = countAfter(rest, "RACECHECK SUMMARY:", "hazard")) {
      log.racecheckSummary = std::max(log.racecheckSummary.value_or(0), *n);
      inRaceSummary = true;
    }
    if (inRaceSummary)
      if (const auto n = raceCounts(rest)) {
        log.racecheckSummary = std::max(log.racecheckSummary.value_or(0), *n);
        inRaceSummary = false;
        continue;
      }
    if (rest.size() < 2 || rest[0] != ' ' || rest[1] == ' ') continue;   // a detail line, or empty
    std::string head = rest.substr(1);
    while (!head.empty() && std::isspace(static_cast<unsigned char>(head.back()))) head.pop_back();
    if (startsWith(head, "RACECHECK SUMMARY")) continue;
    inRaceSummary = false;
    if (startsWith(head, "Target application returned an error")) log.targetFailed = true;
    if (isFinding(head)) log.reports.push_back(head);
  }
  return log;
}

namespace {

std::string lastLine(const std::string& text) {
  std::istringstream lines(text);
  std::string last;
  for (std::string line; std::getline(lines, line);) {
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.pop_back();
    if (!line.empty()) last = line;
  }
  return last.size() > 400 ? utf8Prefix(last, 400) + "..." : last;
}

std::string seconds(double s) {
  std::ostringstream out;
  out << s;
  return out.str();
}

}  // namespace

ToolVerdict judgeToolRun(const ToolRunOutcome& run) {
  ToolVerdict v;
  if (!run.started) {
    v.findings.push_back("compute-sanitizer could not be started: " + run.startError);
    return v;
  }
  // What the tool reported before any deadline comes first: a kernel with
  // thousands of errors keeps the tool busy reporting them until it is
  // stopped, and the first report says more than the deadline does.
  const SanitizerLog log = parseSanitizerLog(run.sanitizerLog);
  v.findings.insert(v.findings.end(), log.reports.begin(), log.reports.end());
  if (run.timedOut) v.findings.push_back("did not finish within " + seconds(run.timeoutSeconds) + " s");
  v.reported = std::max(log.errorSummary.value_or(0), log.racecheckSummary.value_or(0));
  const bool summarised = log.errorSummary || log.racecheckSummary;
  const bool exitedWithError = run.signal == 0 && run.exitCode != 0;
  const bool runFailed = log.targetFailed || (exitedWithError && run.exitCode != run.errorExitCode);

  if (v.reported > 0 && log.reports.empty() && !runFailed)
    v.findings.push_back("its summary counts " + std::to_string(v.reported) + " " +
                         (log.racecheckSummary ? "hazard(s)" : "error(s)") + " that its log does not show");
  if (!run.timedOut) {
    const std::string why = lastLine(run.programOutput);
    if (run.signal != 0)
      v.findings.push_back("compute-sanitizer was ended by signal " + std::to_string(run.signal));
    if (runFailed)
      v.findings.push_back("the kernel's run under " + run.tool + " failed" +
                           (exitedWithError && run.exitCode != run.errorExitCode
                                ? " (exit code " + std::to_string(run.exitCode) + ")"
                                : std::string()) +
                           (why.empty() ? "" : ": " + why));
    if (exitedWithError && run.exitCode == run.errorExitCode && v.findings.empty())
      v.findings.push_back("compute-sanitizer exited with its error exit code (" + std::to_string(run.exitCode) +
                           ") and no report");
    if (run.signal == 0 && !exitedWithError && !summarised)
      v.findings.push_back("compute-sanitizer printed no summary, so it is not known to have checked a launch");
  }
  v.clean = v.findings.empty();
  return v;
}

}  // namespace crucible
