// SPDX-License-Identifier: GPL-3.0-or-later
// One evaluation as a folder on a shared filesystem, for a worker started by
// a batch scheduler instead of by the engine. DIR/request holds one request
// frame of the worker protocol (worker_messages.h); the worker answers into
// DIR/result, written atomically (temp file + rename), as two frames: the
// DeviceReply of the device it ran on, then the reply (or an ErrorReply).
#pragma once
#include <iosfwd>
#include <optional>
#include <stdexcept>
#include <string>

#include "backends/dispatch/worker_messages.h"
#include "core/engine/interfaces.h"

namespace crucible {

inline constexpr const char* kJobRequestFile = "request";
inline constexpr const char* kJobResultFile = "result";

// A job folder or result that cannot be read or does not decode.
class JobFolderError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// A request of any kind the worker serves, as its frame type and payload.
struct JobRequest {
  WorkerMessage type = WorkerMessage::EvaluateRequest;  // Device, Evaluate, Profile or Ceilings request
  std::string payload;                                  // the encoded request (empty for Device/Ceilings)
};

// What a job's worker wrote back.
struct JobResult {
  Fingerprint device;                 // the device the worker reports (empty when it had none)
  WorkerMessage type = WorkerMessage::ErrorReply;  // the reply's type
  std::string payload;                // the encoded reply
  std::string error;                  // type == ErrorReply: the worker's reason
};

// Creates DIR (and parents) and writes DIR/request atomically. Throws JobFolderError.
void writeJobRequest(const std::string& dir, const JobRequest& request);

// Reads and decodes DIR/request. Throws JobFolderError naming what is wrong.
JobRequest readJobRequest(const std::string& dir);

// Reads DIR/result: nullopt while there is none; throws JobFolderError when it is malformed.
std::optional<JobResult> readJobResult(const std::string& dir);

// The worker side, in two steps so a GPU is opened only for a job that can run:
// validateJobFolder reads DIR/request and checks that its payload decodes
// (throws JobFolderError naming what is wrong); answerJob answers it with
// `local` and writes DIR/result atomically. An exception from `local` becomes
// an ErrorReply result (the job did its work: exit 0). A result that cannot be
// written is reported on `err` with exit code 2 and leaves no result.
JobRequest validateJobFolder(const std::string& dir);
int answerJob(const std::string& dir, const JobRequest& request, Evaluator& local, std::ostream& err);
// Both steps; a malformed job is reported on `err` with exit code 2.
int runJobFolder(const std::string& dir, Evaluator& local, std::ostream& err);

}  // namespace crucible
