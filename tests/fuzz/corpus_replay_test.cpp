// SPDX-License-Identifier: GPL-3.0-or-later
// Feeds every file of tests/fuzz/corpus/<target>/ to that target's fuzz entry
// (fuzz_entries.h), in every build: the crashing inputs of issue 13 and
// whatever the libFuzzer runs found stay fixed. Each input must be handled
// without a crash or an unexpected exception, and in bounded time. Under the
// asan preset (packaging/asan-corpus.sh) this is the CI's fuzz check.
// Built twice: test_fuzz_corpus_replay replays the core targets,
// test_fuzz_proposer_corpus_replay (CRUCIBLE_FUZZ_REPLAY_PROPOSERS) those that
// go through the proposers.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <gtest/gtest.h>
#include "tests/fuzz/fuzz_entries.h"

namespace crucible::fuzz {
namespace {

namespace fs = std::filesystem;

// Seconds one input may take; sanitizer builds may ask for more. The proposer
// targets get more: a task's seeds and proposals enumerate the legal genomes of
// its architectures (at most 0.2 s in a release build), and a tune space with no
// legal point is searched to its bound (kMaxLegalPointWork: under a second).
double secondsPerInput() {
  if (const char* env = std::getenv("CRUCIBLE_FUZZ_REPLAY_SECONDS"); env && *env) return std::atof(env);
#ifdef CRUCIBLE_FUZZ_REPLAY_PROPOSERS
  return 6.0;
#else
  return 2.0;
#endif
}

std::vector<fs::path> corpusFiles(const std::string& target) {
  std::vector<fs::path> files;
  const fs::path folder = fs::path(CRUCIBLE_FUZZ_CORPUS_DIR) / target;
  if (!fs::is_directory(folder)) return files;
  for (const auto& entry : fs::directory_iterator(folder))
    if (entry.is_regular_file()) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

std::string bytesOf(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

class CorpusReplay : public ::testing::TestWithParam<NamedFuzzEntry> {};

TEST_P(CorpusReplay, EveryInputIsHandledInBoundedTime) {
  const NamedFuzzEntry target = GetParam();
  const auto files = corpusFiles(target.name);
  ASSERT_FALSE(files.empty()) << "no seed corpus in " << CRUCIBLE_FUZZ_CORPUS_DIR << "/" << target.name;
  const double limit = secondsPerInput();
  for (const fs::path& file : files) {
    SCOPED_TRACE(file.string());
    const std::string bytes = bytesOf(file);
    const auto start = std::chrono::steady_clock::now();
    try {
      target.entry(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    } catch (const std::exception& e) {
      ADD_FAILURE() << "unexpected exception: " << e.what();
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_LT(seconds, limit) << bytes.size() << " bytes took " << seconds << " s";
  }
}

#ifdef CRUCIBLE_FUZZ_REPLAY_PROPOSERS
INSTANTIATE_TEST_SUITE_P(FuzzProposers, CorpusReplay, ::testing::ValuesIn(proposerFuzzEntries()),
#else
INSTANTIATE_TEST_SUITE_P(Fuzz, CorpusReplay, ::testing::ValuesIn(fuzzEntries()),
#endif
                         [](const ::testing::TestParamInfo<NamedFuzzEntry>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace crucible::fuzz
