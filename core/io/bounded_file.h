// SPDX-License-Identifier: GPL-3.0-or-later
// Reading a file that someone else wrote (a task spec, a kernel, a model's
// reply) with bounded work: only a regular file is read (a FIFO, /dev/zero or
// a folder would block, never end or make no sense), and never more than a
// stated number of bytes, so a hostile path costs a message, not a hang.
#pragma once
#include <cstddef>
#include <stdexcept>
#include <string>

namespace crucible {

// Why a file was not read; what() names the path and the reason
// ("/dev/zero: is not a regular file (a character device)").
class BoundedFileError : public std::runtime_error {
public:
  BoundedFileError(const std::string& path, const std::string& reason)
      : std::runtime_error(path + ": " + reason), path_(path), reason_(reason) {}
  const std::string& path() const { return path_; }
  const std::string& reason() const { return reason_; }  // what() without the path
private:
  std::string path_;
  std::string reason_;
};

// Size limits for the kinds of file the workbench reads.
constexpr std::size_t kMaxTaskSpecFileBytes = 4u << 20;   // 4 MiB: the largest built-in spec is ~20 KiB
constexpr std::size_t kMaxKernelSourceBytes = 1u << 20;   // 1 MiB of CUDA C++

// The file's whole content. Throws BoundedFileError when the path cannot be
// opened, is not a regular file, or holds more than maxBytes; `what` names
// the kind of file in the message ("task file", "kernel source").
std::string readBoundedFile(const std::string& path, std::size_t maxBytes, const char* what = "file");

// A kernel's source from disk (a starting kernel, a kernel to evaluate or
// fork): readBoundedFile with kMaxKernelSourceBytes, and UTF-8, since sources
// are kept and exchanged in JSON (records, exports, a model's prompt), which
// holds nothing else. A Latin-1 comment is refused with its line and a way to
// convert the file, rather than failing later where the source is written.
std::string readKernelSourceFile(const std::string& path);

}  // namespace crucible
