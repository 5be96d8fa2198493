// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/io/bounded_file.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/io/utf8_text.h"

namespace crucible {
namespace {

std::string fileKind(mode_t mode) {
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a plain file";
}

// Closes the descriptor on every way out, exceptions included.
struct Descriptor {
  int fd;
  ~Descriptor() {
    if (fd >= 0) ::close(fd);
  }
};

std::string limitText(std::size_t bytes) {
  if (bytes % (1u << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  if (bytes % (1u << 10) == 0) return std::to_string(bytes >> 10) + " KiB";
  return std::to_string(bytes) + " bytes";
}

}  // namespace

std::string readBoundedFile(const std::string& path, std::size_t maxBytes, const char* what) {
  const std::string kind = what;
  // O_NONBLOCK: opening a FIFO would otherwise wait for a writer before fstat
  // could say it is one. It changes nothing for regular files.
  const Descriptor file{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)};
  if (file.fd < 0) throw BoundedFileError(path, "cannot open the " + kind + " (" + std::strerror(errno) + ")");
  // fstat on the open descriptor, not stat on the name: the file checked is the file read.
  struct stat st {};
  if (::fstat(file.fd, &st) != 0)
    throw BoundedFileError(path, "cannot inspect the " + kind + " (" + std::strerror(errno) + ")");
  if (!S_ISREG(st.st_mode))
    throw BoundedFileError(path, "is not a regular file (" + fileKind(st.st_mode) + "); a " + kind + " must be one");
  if (st.st_size < 0 || static_cast<std::uintmax_t>(st.st_size) > maxBytes)
    throw BoundedFileError(path, "the " + kind + " is " + std::to_string(st.st_size) + " bytes, above the limit of " +
                                     limitText(maxBytes));
  // The size is a hint (procfs files say 0, a file may grow while it is
  // read): read until end of file, refusing the byte after maxBytes.
  std::string text(static_cast<std::size_t>(st.st_size), '\0');
  std::size_t used = 0;
  for (;;) {
    if (used == text.size()) {
      if (text.size() > maxBytes)
        throw BoundedFileError(path, "the " + kind + " grew past the limit of " + limitText(maxBytes) + " while it was read");
      text.resize(std::min(maxBytes + 1, text.size() * 2 + 4096));
    }
    const ssize_t n = ::read(file.fd, text.data() + used, text.size() - used);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw BoundedFileError(path, "error while reading the " + kind + " (" + std::strerror(errno) + ")");
    }
    if (n == 0) break;
    used += static_cast<std::size_t>(n);
  }
  if (used > maxBytes)
    throw BoundedFileError(path, "the " + kind + " grew past the limit of " + limitText(maxBytes) + " while it was read");
  text.resize(used);
  return text;
}

std::string readKernelSourceFile(const std::string& path) {
  std::string source = readBoundedFile(path, kMaxKernelSourceBytes, "kernel source");
  if (const std::size_t at = firstNonUtf8(source); at != std::string::npos) {
    const auto line = 1 + std::count(source.begin(), source.begin() + static_cast<std::ptrdiff_t>(at), '\n');
    char byte[8];
    std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned>(static_cast<unsigned char>(source[at])));
    throw BoundedFileError(path, "the kernel source is not UTF-8 (byte " + std::string(byte) + " on line " +
                                     std::to_string(line) +
                                     "); Crucible keeps kernels as UTF-8 text: convert the file, for instance with "
                                     "iconv -f latin1 -t utf-8");
  }
  return source;
}

}  // namespace crucible
