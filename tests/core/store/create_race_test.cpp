// SPDX-License-Identifier: GPL-3.0-or-later
// Two processes creating the same new project at once, many times over: the
// file only ever appears complete, so exactly one create() wins, the other
// says "already exists", and nobody sees a half-made file ("not a Crucible
// project (application_id 0)"). openOrCreate() lets both work in the one project.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>

#include "core/store/project_store.h"
#include "tests/core/store/store_test_support.h"

using namespace crucible;
using namespace crucible::store_test;

namespace {

constexpr int kRounds = 200;

// What a child reports through its exit code; the message goes to its pipe.
enum ChildOutcome : int { kCreated = 0, kAlreadyExists = 10, kOtherError = 20 };

struct Child {
  pid_t pid = -1;
  int messages = -1;  // read end: the child's error message, if any
};

// Forks a child that waits until the start pipe closes, then creates path.
Child spawnCreator(const int (&start)[2], const std::string& path, bool openOrCreate) {
  int message[2];
  if (::pipe(message) != 0) return {};
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(message[0]);
    ::close(start[1]);  // else its own copy would keep the pipe open for ever
    char go;
    while (::read(start[0], &go, 1) < 0 && errno == EINTR) {
    }
    int outcome = kCreated;
    try {
      auto store = openOrCreate ? ProjectStore::openOrCreate(path) : ProjectStore::create(path);
      store->tasks();
    } catch (const std::exception& e) {
      const std::string text = e.what();
      outcome = text.find("already exists") != std::string::npos ? kAlreadyExists : kOtherError;
      if (::write(message[1], text.data(), text.size()) < 0) outcome = kOtherError;
    }
    ::_exit(outcome);
  }
  ::close(message[1]);
  return {pid, message[0]};
}

// Waits for the child; returns its outcome and appends its message to `text`.
int finish(const Child& child, std::string& text) {
  char buffer[512];
  for (ssize_t n; (n = ::read(child.messages, buffer, sizeof buffer)) > 0;) text.append(buffer, static_cast<std::size_t>(n));
  ::close(child.messages);
  int status = 0;
  ::waitpid(child.pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Runs kRounds rounds of two creators released together; calls check(outcomeA, outcomeB, messages).
template <typename Check>
void race(bool openOrCreate, Check check) {
  ScratchDir dir;
  for (int round = 0; round < kRounds; ++round) {
    const std::string path = dir.file("race-" + std::to_string(round) + ".crucible");
    int start[2];
    ASSERT_EQ(::pipe(start), 0);
    const Child a = spawnCreator(start, path, openOrCreate);
    const Child b = spawnCreator(start, path, openOrCreate);
    ASSERT_GT(a.pid, 0);
    ASSERT_GT(b.pid, 0);
    ::close(start[0]);
    ::close(start[1]);  // both read end-of-file at once: go
    std::string messages;
    const int outcomeA = finish(a, messages);
    const int outcomeB = finish(b, messages);
    EXPECT_EQ(messages.find("application_id"), std::string::npos) << "round " << round << ": " << messages;
    check(outcomeA, outcomeB, messages, round);
    // Whatever happened, the file is a whole project now, and only it is there.
    EXPECT_NO_THROW(ProjectStore::open(path, ProjectStore::Mode::ReadOnly)) << "round " << round;
    if (::testing::Test::HasFailure()) return;
  }
  for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(dir.file("x")).parent_path()))
    EXPECT_EQ(entry.path().filename().string().find(".creating-"), std::string::npos)
        << "a temporary file was left: " << entry.path();
}

TEST(StoreCreateRace, ExactlyOneOfTwoConcurrentCreatorsWinsAndTheOtherSaysItExists) {
  race(false, [](int a, int b, const std::string& messages, int round) {
    EXPECT_TRUE((a == kCreated && b == kAlreadyExists) || (a == kAlreadyExists && b == kCreated))
        << "round " << round << ": outcomes " << a << " and " << b << ": " << messages;
  });
}

TEST(StoreCreateRace, ConcurrentOpenOrCreateBothGetTheOneProject) {
  race(true, [](int a, int b, const std::string& messages, int round) {
    EXPECT_EQ(a, kCreated) << "round " << round << ": " << messages;
    EXPECT_EQ(b, kCreated) << "round " << round << ": " << messages;
  });
}

TEST(StoreCreate, AnExistingFileIsNeverTouchedAndTheUmaskDecidesThePermissions) {
  ScratchDir dir;
  const std::string path = dir.file("p.crucible");
  writeBytes(path, {'n', 'o', 't', ' ', 'a', ' ', 'p', 'r', 'o', 'j', 'e', 'c', 't'});
  const auto before = fileBytes(path);
  try {
    ProjectStore::create(path);
    FAIL() << "created over an existing file";
  } catch (const StoreError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": cannot create: the file already exists");
  }
  EXPECT_TRUE(fileBytes(path) == before);

  const std::string fresh = dir.file("fresh.crucible");
  const mode_t mask = ::umask(0022);
  ProjectStore::create(fresh);
  ::umask(mask);
  struct stat st {};
  ASSERT_EQ(::stat(fresh.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0644u) << "not the umask's permissions (a temporary file's 0600?)";
}

}  // namespace
