// SPDX-License-Identifier: GPL-3.0-or-later
// Device printf capture without a GPU: what is written to stdout (where the
// driver writes device printf output) is counted, its head kept, and trimmed
// so one evaluation's output stays bounded. Runs in a child process, since
// the capture takes over the process's stdout.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cstdio>
#include <string>
#include "backends/cuda/worker/device_output.h"

namespace crucible::cuda {
namespace {

// Runs `body` in a child; its return value is the child's exit code (0 = all good).
int inChild(int (*body)()) {
  std::fflush(stdout);
  const pid_t pid = ::fork();
  if (pid == 0) ::_exit(body());
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 100;
}

TEST(DeviceOutput, PrintedBytesAreCountedWithTheirHeadAndStartOver) {
  EXPECT_EQ(inChild([] {
              DeviceOutputCapture capture;
              std::printf("hello from block 0\n");
              for (int i = 0; i < 1000; ++i) std::printf("0123456789");
              const DeviceOutput first = capture.take(64);
              if (first.bytes != 19 + 10000) return 1;
              if (first.head.rfind("hello from block 0\n", 0) != 0 || first.head.size() != 64) return 2;
              if (first.describe().find("10019 bytes") == std::string::npos) return 3;
              if (capture.take().bytes != 0) return 4;   // emptied
              std::printf("again");
              const DeviceOutput second = capture.take();
              return second.bytes == 5 && second.head == "again" ? 0 : 5;
            }),
            0);
}

TEST(DeviceOutput, TrimmingKeepsTheOutputBoundedAndTheCountExact) {
  EXPECT_EQ(inChild([] {
              DeviceOutputCapture capture;
              std::string line(1000, 'x');
              for (int round = 0; round < 50; ++round) {
                for (int i = 0; i < 100; ++i) std::printf("%s", line.c_str());
                std::fflush(stdout);
                capture.trim(16 * 1024);
              }
              const DeviceOutput out = capture.take();
              return out.bytes == 50 * 100 * 1000 && out.head.size() == 512 ? 0 : 1;
            }),
            0);
}

}  // namespace
}  // namespace crucible::cuda
