// SPDX-License-Identifier: GPL-3.0-or-later
// readBoundedFile: only regular files, never more than the limit, and a
// refusal is quick (a FIFO without a writer, /dev/zero, a folder).
#include <chrono>
#include <filesystem>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/io/bounded_file.h"

namespace crucible {
namespace {

namespace fs = std::filesystem;

class BoundedFile : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("crucible_bounded_file_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    const fs::path p = dir_ / name;
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
  }
  // The message readBoundedFile refuses `path` with, and that it did so within a second.
  std::string refusal(const std::string& path, std::size_t limit = 1024) {
    const auto start = std::chrono::steady_clock::now();
    std::string message = "(read)";
    try {
      readBoundedFile(path, limit, "task file");
    } catch (const BoundedFileError& e) {
      EXPECT_EQ(e.path(), path);
      message = e.what();
    }
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1)) << path;
    return message;
  }
  fs::path dir_;
};

TEST_F(BoundedFile, ReadsARegularFileWhole) {
  const std::string text = std::string("{\"a\": 1}\n") + std::string(1000, 'x') + '\0' + "tail";
  EXPECT_EQ(readBoundedFile(write("a.json", text), 4096), text);
  EXPECT_EQ(readBoundedFile(write("empty.json", ""), 4096), "");
  EXPECT_EQ(readBoundedFile(write("exact.json", std::string(4096, 'e')), 4096).size(), 4096u);
}

TEST_F(BoundedFile, AKernelSourceIsUtf8OrRefusedWithItsLine) {
  const std::string utf8 = "// 2\xC3\x97 unrolled \xE2\x86\x92 fewer loads\n__global__ void k() {}\n";
  EXPECT_EQ(readKernelSourceFile(write("k.cu", utf8)), utf8);
  // "µs" saved as Latin-1 in a comment on line 2.
  const std::string path = write("latin1.cu", "// timing\n// 3.2 \xB5s\n__global__ void k() {}\n");
  try {
    readKernelSourceFile(path);
    ADD_FAILURE() << "a Latin-1 kernel was read";
  } catch (const BoundedFileError& e) {
    EXPECT_THAT(e.what(), testing::HasSubstr(path + ": the kernel source is not UTF-8 (byte 0xB5 on line 2)"));
    EXPECT_THAT(e.what(), testing::HasSubstr("iconv -f latin1 -t utf-8"));
  }
  EXPECT_THROW(readKernelSourceFile("/dev/zero"), BoundedFileError);
}

TEST_F(BoundedFile, RefusesAFileOverTheLimit) {
  const std::string path = write("big.json", std::string(1025, ' '));
  EXPECT_THAT(refusal(path), testing::HasSubstr("the task file is 1025 bytes, above the limit of 1 KiB"));
}

TEST_F(BoundedFile, RefusesDevZeroQuickly) {
  EXPECT_THAT(refusal("/dev/zero"), testing::HasSubstr("/dev/zero: is not a regular file (a character device)"));
}

TEST_F(BoundedFile, RefusesAFifoWithoutWaitingForAWriter) {
  const std::string path = (dir_ / "fifo").string();
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  EXPECT_THAT(refusal(path), testing::HasSubstr("is not a regular file (a FIFO)"));
}

TEST_F(BoundedFile, RefusesAFolderAndAMissingFile) {
  EXPECT_THAT(refusal(dir_.string()), testing::HasSubstr("is not a regular file (a folder)"));
  EXPECT_THAT(refusal((dir_ / "missing.json").string()), testing::HasSubstr("cannot open the task file"));
}

TEST_F(BoundedFile, ReadsAFileThatReportsNoSize) {
  // procfs files say 0 bytes: the size is a hint, the limit still holds.
  EXPECT_THAT(readBoundedFile("/proc/self/status", 1 << 20), testing::HasSubstr("Name:"));
  EXPECT_THAT(refusal("/proc/self/status", 16), testing::HasSubstr("grew past the limit of 16 bytes"));
}

}  // namespace
}  // namespace crucible
