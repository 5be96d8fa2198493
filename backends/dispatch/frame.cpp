// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/dispatch/frame.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace crucible {
namespace {

void putLe(std::string& out, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

std::uint64_t getLe(std::string_view in, std::size_t at, int bytes) {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= std::uint64_t(static_cast<unsigned char>(in[at + i])) << (8 * i);
  return v;
}

std::string errnoText(const char* what) { return std::string(what) + ": " + std::strerror(errno); }

// Waits until fd is ready for `events` or the deadline passes (FrameTimeout).
void waitReady(int fd, short events, const Deadline& deadline, const char* what) {
  if (!deadline) return;
  for (;;) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(*deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) throw FrameTimeout(std::string("deadline passed while ") + what);
    pollfd p{fd, events, 0};
    const int rc = ::poll(&p, 1, static_cast<int>(std::min<std::int64_t>(left.count(), 1 << 30)));
    if (rc > 0) return;  // ready, or an error/hangup the next read/write reports
    if (rc < 0 && errno != EINTR) throw FrameError(errnoText("poll"));
  }
}

// Writes all of `data`; send() with MSG_NOSIGNAL on sockets, write() on pipes.
void writeAll(int fd, std::string_view data, const Deadline& deadline) {
  bool socket = true;
  while (!data.empty()) {
    waitReady(fd, POLLOUT, deadline, "writing a frame");
    ssize_t n = socket ? ::send(fd, data.data(), data.size(), MSG_NOSIGNAL) : ::write(fd, data.data(), data.size());
    if (n < 0 && socket && errno == ENOTSOCK) {
      socket = false;
      continue;
    }
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      throw FrameError(errnoText("writing a frame"));
    }
    data.remove_prefix(static_cast<std::size_t>(n));
  }
}

// Reads exactly `size` bytes into `out`. Returns the bytes read before EOF (== size unless EOF came first).
std::size_t readAll(int fd, char* out, std::size_t size, const Deadline& deadline) {
  std::size_t got = 0;
  while (got < size) {
    waitReady(fd, POLLIN, deadline, "reading a frame");
    const ssize_t n = ::read(fd, out + got, size - got);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      if (errno == ECONNRESET) break;  // the peer died: same as EOF for the caller
      throw FrameError(errnoText("reading a frame"));
    }
    got += static_cast<std::size_t>(n);
  }
  return got;
}

}  // namespace

std::string encodeFrame(std::uint32_t type, std::string_view payload) {
  if (payload.size() > kMaxFramePayload)
    throw FrameError("frame payload of " + std::to_string(payload.size()) + " bytes exceeds the maximum of " +
                     std::to_string(kMaxFramePayload));
  std::string out;
  out.reserve(kFrameHeaderSize + payload.size());
  putLe(out, kFrameMagic, 4);
  putLe(out, type, 4);
  putLe(out, payload.size(), 8);
  out.append(payload);
  return out;
}

FrameHeader decodeFrameHeader(std::string_view header, std::size_t maxPayload) {
  if (header.size() != kFrameHeaderSize) throw FrameError("frame header must be 16 bytes");
  if (getLe(header, 0, 4) != kFrameMagic) throw FrameError("not a frame: bad magic (garbage on the worker channel?)");
  FrameHeader h;
  h.type = static_cast<std::uint32_t>(getLe(header, 4, 4));
  h.length = getLe(header, 8, 8);
  if (h.length > maxPayload)
    throw FrameError("oversized frame: " + std::to_string(h.length) + " bytes announced, maximum " +
                     std::to_string(maxPayload));
  return h;
}

void writeFrame(int fd, std::uint32_t type, std::string_view payload, Deadline deadline) {
  // One buffer, so small frames go out in one write; cubin-sized copies are cheap next to a compile.
  writeAll(fd, encodeFrame(type, payload), deadline);
}

std::optional<Frame> readFrame(int fd, Deadline deadline, std::size_t maxPayload) {
  std::string header(kFrameHeaderSize, '\0');
  const std::size_t got = readAll(fd, header.data(), header.size(), deadline);
  if (got == 0) return std::nullopt;
  if (got < header.size())
    throw FrameError("truncated frame: stream ended after " + std::to_string(got) + " of 16 header bytes");
  const FrameHeader h = decodeFrameHeader(header, maxPayload);
  Frame frame;
  frame.type = h.type;
  frame.payload.resize(h.length);
  const std::size_t body = readAll(fd, frame.payload.data(), frame.payload.size(), deadline);
  if (body < h.length)
    throw FrameError("truncated frame: stream ended after " + std::to_string(body) + " of " +
                     std::to_string(h.length) + " payload bytes");
  return frame;
}

}  // namespace crucible
