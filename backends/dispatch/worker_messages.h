// SPDX-License-Identifier: GPL-3.0-or-later
// The messages between the engine and a crucible-worker process: the
// Evaluator interface's requests and replies, one frame each, encoded as CBOR
// (nlohmann::json) so cubins travel as binary, not text.
#pragma once
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>
#include <nlohmann/json.hpp>
#include "core/engine/interfaces.h"

namespace crucible {

// Bumped on any incompatible change; the engine refuses a worker that speaks another.
// 2: a Timing carries the device of the worker that took it.
inline constexpr int kWorkerProtocolVersion = 2;

// The frame type tag of each message.
enum class WorkerMessage : std::uint32_t {
  Hello = 1,          // worker -> engine, unprompted at start: protocol version, pid, device
  DeviceRequest,      // engine -> worker
  DeviceReply,        // Fingerprint
  EvaluateRequest,    // EvaluationRequest with its Task
  EvaluateReply,      // Evaluation
  ProfileRequest,     // Task + KernelBinary
  ProfileReply,       // ProfileResult
  CeilingsRequest,
  CeilingsReply,      // std::vector<Ceiling>
  ErrorReply,         // the worker could not answer: {"message": "..."}
  Shutdown,           // engine -> worker: exit the request loop
};
const char* toString(WorkerMessage m);

// A message that does not decode: wrong type, missing or mistyped field, bad CBOR.
class MessageError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

struct Hello {
  int protocol = kWorkerProtocolVersion;
  std::int64_t pid = 0;
  Fingerprint device;
  std::string error;   // non-empty: the worker runs but its device is unusable (why)
};

// An EvaluationRequest that owns the Task it points to. The Task lives on the
// heap so request.task stays valid when this is moved.
struct OwnedEvaluationRequest {
  std::unique_ptr<Task> task;
  EvaluationRequest request;
};

struct ProfileRequest {
  Task task;
  KernelBinary kernel;
};

// Payload encoders/decoders (CBOR bytes). Decoders throw MessageError naming what is wrong.
std::string encodeHello(const Hello& h);
Hello decodeHello(const std::string& payload);
std::string encodeFingerprint(const Fingerprint& f);
Fingerprint decodeFingerprint(const std::string& payload);
std::string encodeEvaluationRequest(const EvaluationRequest& r);
OwnedEvaluationRequest decodeEvaluationRequest(const std::string& payload);
std::string encodeEvaluation(const Evaluation& e);
Evaluation decodeEvaluation(const std::string& payload);
std::string encodeProfileRequest(const Task& task, const KernelBinary& kernel);
ProfileRequest decodeProfileRequest(const std::string& payload);
std::string encodeProfileResult(const ProfileResult& p);
ProfileResult decodeProfileResult(const std::string& payload);
std::string encodeCeilings(const std::vector<Ceiling>& c);
std::vector<Ceiling> decodeCeilings(const std::string& payload);
std::string encodeError(const std::string& message);
std::string decodeError(const std::string& payload);

// Records on a timed evaluation the device of the worker that timed it (the
// candidate and its interleaved reference alike), unless the evaluator
// already recorded one: every result says what it was measured on, and the
// engine never compares it with a timing from other hardware.
void recordTimingDevice(Evaluation& e, const Fingerprint& device);

// The JSON form of a kernel (the cubin as CBOR binary), for tests and for
// logging a message readably. The domain types' JSON forms are
// core/model/model_json.h's toJson.
namespace wire {
nlohmann::json toJson(const KernelBinary& k);
}  // namespace wire

}  // namespace crucible
