// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/dispatch/frame.h"

#include <gtest/gtest.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <thread>

namespace crucible {
namespace {

using namespace std::chrono_literals;

struct SocketPair {
  int fd[2] = {-1, -1};
  SocketPair() { EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fd), 0); }
  ~SocketPair() {
    closeEnd(0);
    closeEnd(1);
  }
  void closeEnd(int i) {
    if (fd[i] >= 0) ::close(fd[i]);
    fd[i] = -1;
  }
};

std::string bytesWithNuls(std::size_t n) {
  std::string s(n, '\0');
  for (std::size_t i = 0; i < n; ++i) s[i] = static_cast<char>((i * 131 + 7) % 256);
  return s;
}

TEST(Frame, RoundTripsTypeAndBinaryPayload) {
  SocketPair sp;
  const std::string payload = bytesWithNuls(1000);
  writeFrame(sp.fd[0], 42, payload);
  writeFrame(sp.fd[0], 7, "");
  auto a = readFrame(sp.fd[1]);
  auto b = readFrame(sp.fd[1]);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->type, 42u);
  EXPECT_EQ(a->payload, payload);
  EXPECT_EQ(b->type, 7u);
  EXPECT_TRUE(b->payload.empty());
}

TEST(Frame, ReassemblesFramesWrittenOneByteAtATime) {
  SocketPair sp;
  const std::string wire = encodeFrame(3, "partial writes") + encodeFrame(4, bytesWithNuls(64));
  std::thread writer([&] {
    for (char c : wire) {
      ASSERT_EQ(::write(sp.fd[0], &c, 1), 1);
      std::this_thread::sleep_for(50us);
    }
  });
  auto a = readFrame(sp.fd[1], std::chrono::steady_clock::now() + 10s);
  auto b = readFrame(sp.fd[1], std::chrono::steady_clock::now() + 10s);
  writer.join();
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->type, 3u);
  EXPECT_EQ(a->payload, "partial writes");
  EXPECT_EQ(b->payload, bytesWithNuls(64));
}

TEST(Frame, PayloadLargerThanTheSocketBufferCrossesInPieces) {
  SocketPair sp;
  const std::string big = bytesWithNuls(8u << 20);
  std::optional<Frame> got;
  std::thread reader([&] { got = readFrame(sp.fd[1]); });
  writeFrame(sp.fd[0], 9, big, std::chrono::steady_clock::now() + 30s);
  reader.join();
  ASSERT_TRUE(got);
  EXPECT_EQ(got->payload.size(), big.size());
  EXPECT_TRUE(got->payload == big);
}

TEST(Frame, WorksOverAPipeToo) {
  int p[2];
  ASSERT_EQ(::pipe(p), 0);
  writeFrame(p[1], 5, "through a pipe");
  ::close(p[1]);
  auto f = readFrame(p[0]);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->payload, "through a pipe");
  EXPECT_FALSE(readFrame(p[0]));  // clean end of stream
  ::close(p[0]);
}

TEST(Frame, CleanEndOfStreamIsNoFrame) {
  SocketPair sp;
  sp.closeEnd(0);
  EXPECT_FALSE(readFrame(sp.fd[1]).has_value());
}

TEST(Frame, TruncatedHeaderIsAnError) {
  SocketPair sp;
  const std::string wire = encodeFrame(1, "abc");
  ASSERT_EQ(::write(sp.fd[0], wire.data(), 5), 5);
  sp.closeEnd(0);
  try {
    readFrame(sp.fd[1]);
    FAIL() << "a truncated header must throw";
  } catch (const FrameError& e) {
    EXPECT_NE(std::string(e.what()).find("truncated frame"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("5 of 16 header bytes"), std::string::npos) << e.what();
  }
}

TEST(Frame, TruncatedPayloadIsAnError) {
  SocketPair sp;
  const std::string wire = encodeFrame(1, std::string(100, 'x'));
  ASSERT_EQ(::write(sp.fd[0], wire.data(), kFrameHeaderSize + 10), static_cast<ssize_t>(kFrameHeaderSize + 10));
  sp.closeEnd(0);
  try {
    readFrame(sp.fd[1]);
    FAIL() << "a truncated payload must throw";
  } catch (const FrameError& e) {
    EXPECT_NE(std::string(e.what()).find("10 of 100 payload bytes"), std::string::npos) << e.what();
  }
}

TEST(Frame, OversizedFrameIsRefusedBeforeReadingIt) {
  SocketPair sp;
  writeFrame(sp.fd[0], 1, std::string(2048, 'x'));
  try {
    readFrame(sp.fd[1], std::nullopt, 1024);
    FAIL() << "an oversized frame must throw";
  } catch (const FrameError& e) {
    EXPECT_NE(std::string(e.what()).find("oversized frame: 2048 bytes"), std::string::npos) << e.what();
  }
  // The default bound holds too: a header announcing more than kMaxFramePayload.
  std::string header = encodeFrame(1, "").substr(0, 8) + std::string("\xff\xff\xff\xff\xff\xff\xff\x7f", 8);
  EXPECT_THROW(decodeFrameHeader(header), FrameError);
}

TEST(Frame, GarbageIsRecognised) {
  SocketPair sp;
  const std::string garbage = "hello, this is not a frame";
  ASSERT_EQ(::write(sp.fd[0], garbage.data(), garbage.size()), static_cast<ssize_t>(garbage.size()));
  try {
    readFrame(sp.fd[1]);
    FAIL();
  } catch (const FrameError& e) {
    EXPECT_NE(std::string(e.what()).find("bad magic"), std::string::npos);
  }
}

TEST(Frame, DeadlineStopsAWaitingRead) {
  SocketPair sp;
  const auto start = std::chrono::steady_clock::now();
  EXPECT_THROW(readFrame(sp.fd[1], start + 100ms), FrameTimeout);
  const auto waited = std::chrono::steady_clock::now() - start;
  EXPECT_GE(waited, 100ms);
  EXPECT_LT(waited, 5s);
}

TEST(Frame, WritingToAClosedPeerIsAnErrorNotSigpipe) {
  SocketPair sp;
  sp.closeEnd(1);
  EXPECT_THROW(writeFrame(sp.fd[0], 1, "nobody listens"), FrameError);
}

std::atomic<int> interruptions{0};
void countInterruption(int) { ++interruptions; }

TEST(Frame, ReadResumesAfterEintr) {
  // A handler without SA_RESTART makes the blocked read() fail with EINTR.
  struct sigaction action {}, previous{};
  action.sa_handler = countInterruption;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;
  ASSERT_EQ(::sigaction(SIGUSR1, &action, &previous), 0);
  interruptions = 0;

  SocketPair sp;
  std::optional<Frame> got;
  std::string error;
  std::thread reader([&] {
    try {
      got = readFrame(sp.fd[1]);
    } catch (const std::exception& e) {
      error = e.what();
    }
  });
  for (int i = 0; i < 5; ++i) {
    std::this_thread::sleep_for(20ms);
    ::pthread_kill(reader.native_handle(), SIGUSR1);
  }
  const std::string wire = encodeFrame(11, "after the signals");
  ASSERT_EQ(::write(sp.fd[0], wire.data(), 7), 7);  // and a partial write on top
  std::this_thread::sleep_for(20ms);
  ::pthread_kill(reader.native_handle(), SIGUSR1);
  std::this_thread::sleep_for(20ms);
  ASSERT_EQ(::write(sp.fd[0], wire.data() + 7, wire.size() - 7), static_cast<ssize_t>(wire.size() - 7));
  reader.join();
  ::sigaction(SIGUSR1, &previous, nullptr);

  EXPECT_GE(interruptions.load(), 1);
  EXPECT_EQ(error, "");
  ASSERT_TRUE(got);
  EXPECT_EQ(got->type, 11u);
  EXPECT_EQ(got->payload, "after the signals");
}

}  // namespace
}  // namespace crucible
