// SPDX-License-Identifier: GPL-3.0-or-later
// Worker processes run generated code: they inherit only the allow-listed
// variables a CUDA program needs, never the engine's credentials. Proved on a
// live worker by reading its /proc/<pid>/environ.
#include "backends/dispatch/worker_environment.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <fstream>
#include <iterator>
#include <optional>
#include <set>

#include "backends/dispatch/worker_process.h"

namespace crucible {
namespace {

// Sets a variable for one test and restores what was there.
class ScopedVariable {
public:
  ScopedVariable(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value, 1);
  }
  ~ScopedVariable() {
    if (old_)
      ::setenv(name_, old_->c_str(), 1);
    else
      ::unsetenv(name_);
  }

private:
  const char* name_;
  std::optional<std::string> old_;
};

TEST(WorkerEnvironment, OnlyWhatACudaProgramNeedsIsInherited) {
  for (const char* name : {"PATH", "HOME", "LANG", "LC_ALL", "LC_NUMERIC", "TMPDIR", "LD_LIBRARY_PATH",
                           "CUDA_VISIBLE_DEVICES", "CUDA_CACHE_PATH", "CUDA_MODULE_LOADING", "CUDA_HOME",
                           "ASAN_OPTIONS", "UBSAN_OPTIONS"})
    EXPECT_TRUE(workerMayInherit(name)) << name;
  for (const char* name : {"FAKE_API_KEY", "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GITHUB_TOKEN", "HF_TOKEN",
                           "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "SSH_AUTH_SOCK",
                           "LD_PRELOAD", "PYTHONPATH", "USER", "CUDA_", "LC_", "CUDA_API_KEY", "CUDA_TOKEN",
                           "LC_SECRET", "PATHX", "path", ""})
    EXPECT_FALSE(workerMayInherit(name)) << name;
}

TEST(WorkerEnvironment, OverridesAreSetWhateverTheirNameAndReplaceInheritedValues) {
  const char* inherited[] = {"PATH=/usr/bin", "OPENAI_API_KEY=sk-secret", "CUDA_VISIBLE_DEVICES=0,1",
                             "NO_EQUALS_SIGN", "LC_ALL=C", nullptr};
  const auto env = workerEnvironment(inherited, {{"CUDA_VISIBLE_DEVICES", "1"}, {"FAKE_WORKER_FAIL_AT_START", "1"}});
  EXPECT_EQ(std::set<std::string>(env.begin(), env.end()),
            (std::set<std::string>{"PATH=/usr/bin", "LC_ALL=C", "CUDA_VISIBLE_DEVICES=1", "FAKE_WORKER_FAIL_AT_START=1"}));
  EXPECT_EQ(env.size(), 4u) << "a variable is set twice";
}

TEST(WorkerEnvironment, ALiveWorkerDoesNotSeeTheEnginesCredentials) {
  const ScopedVariable key("FAKE_API_KEY", "secret");
  const ScopedVariable aws("AWS_SECRET_ACCESS_KEY", "secret");
  const ScopedVariable token("GITHUB_TOKEN", "secret");
  const ScopedVariable cache("CUDA_CACHE_MAXSIZE", "1048576");
  WorkerProcessOptions options;
  options.executable = CRUCIBLE_FAKE_WORKER;
  options.environment["CUDA_VISIBLE_DEVICES"] = "3";
  WorkerProcess worker(options);
  worker.start();
  ASSERT_TRUE(worker.running());

  std::ifstream in("/proc/" + std::to_string(worker.pid()) + "/environ", std::ios::binary);
  ASSERT_TRUE(in) << "cannot read the worker's environment";
  const std::string raw{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  std::set<std::string> names;
  for (std::size_t start = 0; start < raw.size();) {
    const std::size_t end = raw.find('\0', start);
    const std::string entry = raw.substr(start, end == std::string::npos ? std::string::npos : end - start);
    names.insert(entry.substr(0, entry.find('=')));
    EXPECT_EQ(entry.find("secret"), std::string::npos) << entry;
    if (end == std::string::npos) break;
    start = end + 1;
  }
  for (const std::string& name : names) EXPECT_TRUE(workerMayInherit(name) || name == "CUDA_VISIBLE_DEVICES") << name;
  EXPECT_EQ(names.count("FAKE_API_KEY"), 0u);
  EXPECT_EQ(names.count("AWS_SECRET_ACCESS_KEY"), 0u);
  EXPECT_EQ(names.count("GITHUB_TOKEN"), 0u);
  EXPECT_EQ(names.count("CUDA_CACHE_MAXSIZE"), 1u) << "a driver setting did not reach the worker";
  EXPECT_NE(raw.find(std::string("CUDA_VISIBLE_DEVICES=3")), std::string::npos) << "the engine's override is missing";
  if (std::getenv("PATH")) {
    EXPECT_EQ(names.count("PATH"), 1u);
  }
  worker.stop();
}

}  // namespace
}  // namespace crucible
