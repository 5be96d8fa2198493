// SPDX-License-Identifier: GPL-3.0-or-later
// Length-prefixed frames over a pipe or socket: the wire of the engine <->
// worker protocol. A frame is a 16-byte header (magic, type tag, payload
// length; little-endian) followed by the payload bytes.
#pragma once
#include <chrono>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace crucible {

// Cubins are a few MiB at most; anything near this bound is a corrupt stream.
inline constexpr std::size_t kMaxFramePayload = 256u << 20;
inline constexpr std::size_t kFrameHeaderSize = 16;
inline constexpr std::uint32_t kFrameMagic = 0x31465243;  // "CRF1"

struct Frame {
  std::uint32_t type = 0;
  std::string payload;
};

// A broken stream: truncated frame, oversized or garbled header, I/O error, peer gone.
class FrameError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};
// The deadline passed before the frame was completely read or written.
class FrameTimeout : public FrameError {
public:
  using FrameError::FrameError;
};

using Deadline = std::optional<std::chrono::steady_clock::time_point>;

// The bytes of one frame (header + payload). Throws FrameError if the payload exceeds kMaxFramePayload.
std::string encodeFrame(std::uint32_t type, std::string_view payload);

// Header fields of a frame; throws FrameError on a bad magic or a length over maxPayload.
struct FrameHeader {
  std::uint32_t type = 0;
  std::uint64_t length = 0;
};
FrameHeader decodeFrameHeader(std::string_view header16, std::size_t maxPayload = kMaxFramePayload);

// Writes a whole frame, resuming after partial writes and EINTR. On sockets it
// never raises SIGPIPE (a dead peer is a FrameError). Throws FrameTimeout when
// the deadline passes first.
void writeFrame(int fd, std::uint32_t type, std::string_view payload, Deadline deadline = std::nullopt);

// Reads one whole frame, resuming after partial reads and EINTR. Returns
// nullopt on a clean end of stream (EOF before the first header byte); throws
// FrameError on EOF inside a frame ("truncated"), an oversized or garbled
// header, or a read error, and FrameTimeout when the deadline passes first.
std::optional<Frame> readFrame(int fd, Deadline deadline = std::nullopt, std::size_t maxPayload = kMaxFramePayload);

}  // namespace crucible
