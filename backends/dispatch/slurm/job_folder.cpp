// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/dispatch/slurm/job_folder.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <ostream>
#include <string_view>

#include "backends/dispatch/frame.h"

namespace crucible {
namespace {

namespace fs = std::filesystem;

std::string path(const std::string& dir, const char* name) { return (fs::path(dir) / name).string(); }

// Reads a whole file, refusing one larger than two frames can be.
std::optional<std::string> readWhole(const std::string& file) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return std::nullopt;
    throw JobFolderError("cannot open " + file + ": " + std::strerror(errno));
  }
  std::string data;
  char buffer[1 << 16];
  const std::size_t cap = 2 * (kMaxFramePayload + kFrameHeaderSize);
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int e = errno;
      ::close(fd);
      throw JobFolderError("cannot read " + file + ": " + std::strerror(e));
    }
    if (n == 0) break;
    data.append(buffer, static_cast<std::size_t>(n));
    if (data.size() > cap) {
      ::close(fd);
      throw JobFolderError(file + " is larger than any job file can be");
    }
  }
  ::close(fd);
  return data;
}

// Writes `data` to a temp file next to `file`, syncs it, and renames it over
// `file`: a reader on another node sees no file or the whole one.
void writeAtomically(const std::string& file, const std::string& data) {
  const std::string temp = file + ".tmp." + std::to_string(::getpid());
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw JobFolderError("cannot create " + temp + ": " + std::strerror(errno));
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int e = errno;
      ::close(fd);
      ::unlink(temp.c_str());
      throw JobFolderError("cannot write " + temp + ": " + std::strerror(e));
    }
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    const int e = errno;
    ::unlink(temp.c_str());
    throw JobFolderError("cannot write " + temp + ": " + std::strerror(e));
  }
  if (::rename(temp.c_str(), file.c_str()) != 0) {
    const int e = errno;
    ::unlink(temp.c_str());
    throw JobFolderError("cannot rename " + temp + " to " + file + ": " + std::strerror(e));
  }
}

// Splits `data` into frames; throws JobFolderError naming `what` when it is not a clean sequence.
std::vector<Frame> splitFrames(std::string_view data, const std::string& what) {
  std::vector<Frame> frames;
  while (!data.empty()) {
    if (data.size() < kFrameHeaderSize) throw JobFolderError(what + " is truncated (a partial frame header)");
    FrameHeader h;
    try {
      h = decodeFrameHeader(data.substr(0, kFrameHeaderSize));
    } catch (const FrameError& e) {
      throw JobFolderError(what + " is not a worker frame: " + e.what());
    }
    data.remove_prefix(kFrameHeaderSize);
    if (data.size() < h.length)
      throw JobFolderError(what + " is truncated (a frame of " + std::to_string(h.length) + " bytes has " +
                           std::to_string(data.size()) + ")");
    frames.push_back(Frame{h.type, std::string(data.substr(0, h.length))});
    data.remove_prefix(h.length);
  }
  return frames;
}

bool isRequest(WorkerMessage t) {
  return t == WorkerMessage::DeviceRequest || t == WorkerMessage::EvaluateRequest ||
         t == WorkerMessage::ProfileRequest || t == WorkerMessage::CeilingsRequest;
}

bool isReply(WorkerMessage t) {
  return t == WorkerMessage::DeviceReply || t == WorkerMessage::EvaluateReply || t == WorkerMessage::ProfileReply ||
         t == WorkerMessage::CeilingsReply || t == WorkerMessage::ErrorReply;
}

}  // namespace

void writeJobRequest(const std::string& dir, const JobRequest& request) {
  if (!isRequest(request.type)) throw JobFolderError(std::string("not a request: ") + toString(request.type));
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw JobFolderError("cannot create the job folder " + dir + ": " + ec.message());
  writeAtomically(path(dir, kJobRequestFile), encodeFrame(static_cast<std::uint32_t>(request.type), request.payload));
}

JobRequest readJobRequest(const std::string& dir) {
  const std::string file = path(dir, kJobRequestFile);
  const auto data = readWhole(file);
  if (!data) throw JobFolderError(file + " does not exist (not a job folder?)");
  const auto frames = splitFrames(*data, file);
  if (frames.size() != 1)
    throw JobFolderError(file + " holds " + std::to_string(frames.size()) + " frames; a job request is exactly one");
  const auto type = static_cast<WorkerMessage>(frames[0].type);
  if (!isRequest(type))
    throw JobFolderError(file + " holds a " + toString(type) + " frame (type " + std::to_string(frames[0].type) +
                         "), not a request");
  return JobRequest{type, frames[0].payload};
}

JobRequest validateJobFolder(const std::string& dir) {
  JobRequest r = readJobRequest(dir);
  try {
    if (r.type == WorkerMessage::EvaluateRequest) (void)decodeEvaluationRequest(r.payload);
    if (r.type == WorkerMessage::ProfileRequest) (void)decodeProfileRequest(r.payload);
  } catch (const MessageError& e) {
    throw JobFolderError(path(dir, kJobRequestFile) + ": the " + toString(r.type) + " does not decode: " + e.what());
  }
  return r;
}

std::optional<JobResult> readJobResult(const std::string& dir) {
  const std::string file = path(dir, kJobResultFile);
  const auto data = readWhole(file);
  if (!data) return std::nullopt;
  const auto frames = splitFrames(*data, file);
  if (frames.size() != 2)
    throw JobFolderError(file + " holds " + std::to_string(frames.size()) +
                         " frames; a job result is two (device, reply)");
  if (static_cast<WorkerMessage>(frames[0].type) != WorkerMessage::DeviceReply)
    throw JobFolderError(file + ": the first frame is not the device");
  const auto type = static_cast<WorkerMessage>(frames[1].type);
  if (!isReply(type)) throw JobFolderError(file + ": the second frame is not a reply (type " +
                                           std::to_string(frames[1].type) + ")");
  JobResult r;
  r.type = type;
  r.payload = frames[1].payload;
  try {
    r.device = decodeFingerprint(frames[0].payload);
    if (type == WorkerMessage::ErrorReply) r.error = decodeError(r.payload);
  } catch (const MessageError& e) {
    throw JobFolderError(file + " does not decode: " + e.what());
  }
  return r;
}

int answerJob(const std::string& dir, const JobRequest& request, Evaluator& local, std::ostream& err) {
  std::string device = encodeFingerprint(Fingerprint{});
  WorkerMessage type = WorkerMessage::ErrorReply;
  std::string payload;
  try {
    const Fingerprint here = local.device();
    device = encodeFingerprint(here);
    switch (request.type) {
      case WorkerMessage::DeviceRequest:
        type = WorkerMessage::DeviceReply;
        payload = device;
        break;
      case WorkerMessage::EvaluateRequest: {
        const auto r = decodeEvaluationRequest(request.payload);
        Evaluation e = local.evaluate(r.request);
        recordTimingDevice(e, here);  // the node's GPU: nodes of one cluster may differ
        payload = encodeEvaluation(e);
        type = WorkerMessage::EvaluateReply;
        break;
      }
      case WorkerMessage::ProfileRequest: {
        const auto r = decodeProfileRequest(request.payload);
        payload = encodeProfileResult(local.profile(r.task, r.kernel));
        type = WorkerMessage::ProfileReply;
        break;
      }
      case WorkerMessage::CeilingsRequest:
        payload = encodeCeilings(local.measureCeilings());
        type = WorkerMessage::CeilingsReply;
        break;
      default:
        throw JobFolderError(std::string("not a request: ") + toString(request.type));
    }
  } catch (const std::exception& e) {
    type = WorkerMessage::ErrorReply;
    payload = encodeError(e.what());
  }
  try {
    writeAtomically(path(dir, kJobResultFile),
                    encodeFrame(static_cast<std::uint32_t>(WorkerMessage::DeviceReply), device) +
                        encodeFrame(static_cast<std::uint32_t>(type), payload));
  } catch (const std::exception& e) {
    err << "crucible-worker: job " << dir << ": " << e.what() << "\n";
    return 2;
  }
  return 0;
}

int runJobFolder(const std::string& dir, Evaluator& local, std::ostream& err) {
  JobRequest request;
  try {
    request = validateJobFolder(dir);
  } catch (const JobFolderError& e) {
    err << "crucible-worker: malformed job: " << e.what() << "\n";
    return 2;
  }
  return answerJob(dir, request, local, err);
}

}  // namespace crucible
