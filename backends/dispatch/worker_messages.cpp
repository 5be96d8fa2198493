// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/dispatch/worker_messages.h"

namespace crucible {

using nlohmann::json;

namespace {

// A required field of a decoded object, with an error that names it and its message.
template <typename T>
T field(const json& j, const char* key, const char* what) {
  if (!j.is_object()) throw MessageError(std::string(what) + ": expected an object");
  auto it = j.find(key);
  if (it == j.end()) throw MessageError(std::string(what) + ": missing field '" + key + "'");
  try {
    return it->get<T>();
  } catch (const json::exception& e) {
    throw MessageError(std::string(what) + ": field '" + key + "' has the wrong type (" + e.what() + ")");
  }
}

const json& member(const json& j, const char* key, const char* what) {
  if (!j.is_object()) throw MessageError(std::string(what) + ": expected an object");
  auto it = j.find(key);
  if (it == j.end()) throw MessageError(std::string(what) + ": missing field '" + key + "'");
  return *it;
}

json binary(const std::string& bytes) { return json::binary(std::vector<std::uint8_t>(bytes.begin(), bytes.end())); }

std::string bytesOf(const json& j, const char* key, const char* what) {
  const json& b = member(j, key, what);
  if (!b.is_binary()) throw MessageError(std::string(what) + ": field '" + key + "' is not binary");
  const auto& v = b.get_binary();
  return std::string(v.begin(), v.end());
}

std::string cbor(const json& j) {
  const auto bytes = json::to_cbor(j);
  return std::string(bytes.begin(), bytes.end());
}

json parse(const std::string& payload, const char* what) {
  try {
    return json::from_cbor(payload);
  } catch (const json::exception& e) {
    throw MessageError(std::string("malformed ") + what + " message: " + e.what());
  }
}

Fingerprint fingerprintFrom(const json& j) {
  constexpr const char* w = "Fingerprint";
  Fingerprint f;
  f.gpu = field<std::string>(j, "gpu", w);
  f.arch = field<std::string>(j, "arch", w);
  f.driver = field<std::string>(j, "driver", w);
  f.cudaRuntime = field<std::string>(j, "cudaRuntime", w);
  f.nvrtc = field<std::string>(j, "nvrtc", w);
  f.smClockMHz = field<double>(j, "smClockMHz", w);
  f.memClockMHz = field<double>(j, "memClockMHz", w);
  f.host = field<std::string>(j, "host", w);
  return f;
}

Task taskFrom(const json& j) {
  constexpr const char* w = "Task";
  Task t;
  t.id = field<TaskId>(j, "id", w);
  t.name = field<std::string>(j, "name", w);
  t.family = field<std::string>(j, "family", w);
  t.specJson = field<std::string>(j, "specJson", w);
  t.specVersion = field<int>(j, "specVersion", w);
  return t;
}

LaunchRule launchFrom(const json& j) {
  constexpr const char* w = "LaunchRule";
  LaunchRule l;
  l.entry = field<std::string>(j, "entry", w);
  const auto grid = field<std::vector<std::string>>(j, "grid", w);
  const auto block = field<std::vector<std::string>>(j, "block", w);
  if (grid.size() != 3 || block.size() != 3) throw MessageError("LaunchRule: grid and block need 3 expressions each");
  for (int i = 0; i < 3; ++i) {
    l.grid[i] = grid[i];
    l.block[i] = block[i];
  }
  l.dynamicSmemBytes = field<std::string>(j, "dynamicSmemBytes", w);
  return l;
}

KernelBinary kernelFrom(const json& j) {
  KernelBinary k;
  k.cubin = bytesOf(j, "cubin", "KernelBinary");
  k.launch = launchFrom(member(j, "launch", "KernelBinary"));
  return k;
}

ValidationTrial trialFrom(const json& j) {
  constexpr const char* w = "ValidationTrial";
  ValidationTrial t;
  t.seed = field<std::uint64_t>(j, "seed", w);
  t.passed = field<bool>(j, "passed", w);
  t.reason = field<std::string>(j, "reason", w);
  t.maxAbsError = field<double>(j, "maxAbsError", w);
  t.maxRelError = field<double>(j, "maxRelError", w);
  t.mismatches = field<std::int64_t>(j, "mismatches", w);
  return t;
}

Timing timingFrom(const json& j) {
  constexpr const char* w = "Timing";
  Timing t;
  t.samplesUs = field<std::vector<double>>(j, "samplesUs", w);
  t.medianUs = field<double>(j, "medianUs", w);
  t.iqrUs = field<double>(j, "iqrUs", w);
  t.referenceMedianUs = field<double>(j, "referenceMedianUs", w);
  t.referenceIqrUs = field<double>(j, "referenceIqrUs", w);
  t.speedup = field<double>(j, "speedup", w);
  t.smClockMHz = field<double>(j, "smClockMHz", w);
  return t;
}

Ceiling ceilingFrom(const json& j) {
  constexpr const char* w = "Ceiling";
  Ceiling c;
  c.device = field<std::string>(j, "device", w);
  c.name = field<std::string>(j, "name", w);
  c.measured = field<double>(j, "measured", w);
  c.datasheet = field<double>(j, "datasheet", w);
  c.unit = field<std::string>(j, "unit", w);
  c.measuredAt = field<std::int64_t>(j, "measuredAt", w);
  return c;
}

CandidateStatus statusFrom(const json& j, const char* what) {
  try {
    return candidateStatusFromString(field<std::string>(j, "status", what));
  } catch (const std::invalid_argument& e) {
    throw MessageError(std::string(what) + ": " + e.what());
  }
}

}  // namespace

const char* toString(WorkerMessage m) {
  switch (m) {
    case WorkerMessage::Hello: return "hello";
    case WorkerMessage::DeviceRequest: return "device-request";
    case WorkerMessage::DeviceReply: return "device-reply";
    case WorkerMessage::EvaluateRequest: return "evaluate-request";
    case WorkerMessage::EvaluateReply: return "evaluate-reply";
    case WorkerMessage::ProfileRequest: return "profile-request";
    case WorkerMessage::ProfileReply: return "profile-reply";
    case WorkerMessage::CeilingsRequest: return "ceilings-request";
    case WorkerMessage::CeilingsReply: return "ceilings-reply";
    case WorkerMessage::ErrorReply: return "error-reply";
    case WorkerMessage::Shutdown: return "shutdown";
  }
  return "unknown";
}

namespace wire {
json toJson(const Fingerprint& f) {
  return {{"gpu", f.gpu},       {"arch", f.arch},       {"driver", f.driver},           {"cudaRuntime", f.cudaRuntime},
          {"nvrtc", f.nvrtc},   {"smClockMHz", f.smClockMHz}, {"memClockMHz", f.memClockMHz}, {"host", f.host}};
}
json toJson(const Task& t) {
  return {{"id", t.id}, {"name", t.name}, {"family", t.family}, {"specJson", t.specJson}, {"specVersion", t.specVersion}};
}
json toJson(const LaunchRule& l) {
  return {{"entry", l.entry},
          {"grid", {l.grid[0], l.grid[1], l.grid[2]}},
          {"block", {l.block[0], l.block[1], l.block[2]}},
          {"dynamicSmemBytes", l.dynamicSmemBytes}};
}
json toJson(const KernelBinary& k) { return {{"cubin", binary(k.cubin)}, {"launch", toJson(k.launch)}}; }
json toJson(const ValidationTrial& t) {
  return {{"seed", t.seed},         {"passed", t.passed},           {"reason", t.reason},
          {"maxAbsError", t.maxAbsError}, {"maxRelError", t.maxRelError}, {"mismatches", t.mismatches}};
}
json toJson(const Timing& t) {
  return {{"samplesUs", t.samplesUs},
          {"medianUs", t.medianUs},
          {"iqrUs", t.iqrUs},
          {"referenceMedianUs", t.referenceMedianUs},
          {"referenceIqrUs", t.referenceIqrUs},
          {"speedup", t.speedup},
          {"smClockMHz", t.smClockMHz}};
}
json toJson(const Ceiling& c) {
  return {{"device", c.device},       {"name", c.name}, {"measured", c.measured},
          {"datasheet", c.datasheet}, {"unit", c.unit}, {"measuredAt", c.measuredAt}};
}
}  // namespace wire

std::string encodeHello(const Hello& h) {
  return cbor({{"protocol", h.protocol}, {"pid", h.pid}, {"device", wire::toJson(h.device)}, {"error", h.error}});
}

Hello decodeHello(const std::string& payload) {
  const json j = parse(payload, "hello");
  Hello h;
  h.protocol = field<int>(j, "protocol", "Hello");
  h.pid = field<std::int64_t>(j, "pid", "Hello");
  h.device = fingerprintFrom(member(j, "device", "Hello"));
  h.error = field<std::string>(j, "error", "Hello");
  return h;
}

std::string encodeFingerprint(const Fingerprint& f) { return cbor(wire::toJson(f)); }
Fingerprint decodeFingerprint(const std::string& payload) { return fingerprintFrom(parse(payload, "device")); }

std::string encodeEvaluationRequest(const EvaluationRequest& r) {
  return cbor({{"task", r.task ? wire::toJson(*r.task) : json(nullptr)},
               {"candidate", wire::toJson(r.candidate)},
               {"reference", wire::toJson(r.reference)},
               {"seeds", r.seeds},
               {"time", r.time},
               {"extended", r.extended}});
}

OwnedEvaluationRequest decodeEvaluationRequest(const std::string& payload) {
  constexpr const char* w = "EvaluationRequest";
  const json j = parse(payload, "evaluate");
  OwnedEvaluationRequest out;
  if (const json& t = member(j, "task", w); !t.is_null()) out.task = std::make_unique<Task>(taskFrom(t));
  out.request.task = out.task.get();
  out.request.candidate = kernelFrom(member(j, "candidate", w));
  out.request.reference = kernelFrom(member(j, "reference", w));
  out.request.seeds = field<std::vector<std::uint64_t>>(j, "seeds", w);
  out.request.time = field<bool>(j, "time", w);
  out.request.extended = field<bool>(j, "extended", w);
  return out;
}

std::string encodeEvaluation(const Evaluation& e) {
  json trials = json::array();
  for (const auto& t : e.trials) trials.push_back(wire::toJson(t));
  return cbor({{"status", toString(e.status)},
               {"detail", e.detail},
               {"trials", trials},
               {"timing", e.timing ? wire::toJson(*e.timing) : json(nullptr)},
               {"gpuSeconds", e.gpuSeconds}});
}

Evaluation decodeEvaluation(const std::string& payload) {
  constexpr const char* w = "Evaluation";
  const json j = parse(payload, "evaluation");
  Evaluation e;
  e.status = statusFrom(j, w);
  e.detail = field<std::string>(j, "detail", w);
  const json& trials = member(j, "trials", w);
  if (!trials.is_array()) throw MessageError("Evaluation: field 'trials' is not an array");
  for (const auto& t : trials) e.trials.push_back(trialFrom(t));
  if (const json& t = member(j, "timing", w); !t.is_null()) e.timing = timingFrom(t);
  e.gpuSeconds = field<double>(j, "gpuSeconds", w);
  return e;
}

std::string encodeProfileRequest(const Task& task, const KernelBinary& kernel) {
  return cbor({{"task", wire::toJson(task)}, {"kernel", wire::toJson(kernel)}});
}

ProfileRequest decodeProfileRequest(const std::string& payload) {
  const json j = parse(payload, "profile request");
  return ProfileRequest{taskFrom(member(j, "task", "ProfileRequest")), kernelFrom(member(j, "kernel", "ProfileRequest"))};
}

std::string encodeProfileResult(const ProfileResult& p) {
  return cbor({{"permitted", p.permitted}, {"detail", p.detail}, {"metrics", p.metrics}});
}

ProfileResult decodeProfileResult(const std::string& payload) {
  constexpr const char* w = "ProfileResult";
  const json j = parse(payload, "profile result");
  ProfileResult p;
  p.permitted = field<bool>(j, "permitted", w);
  p.detail = field<std::string>(j, "detail", w);
  p.metrics = field<std::map<std::string, double>>(j, "metrics", w);
  return p;
}

std::string encodeCeilings(const std::vector<Ceiling>& c) {
  json list = json::array();
  for (const auto& x : c) list.push_back(wire::toJson(x));
  return cbor({{"ceilings", list}});
}

std::vector<Ceiling> decodeCeilings(const std::string& payload) {
  const json j = parse(payload, "ceilings");
  const json& list = member(j, "ceilings", "Ceilings");
  if (!list.is_array()) throw MessageError("Ceilings: field 'ceilings' is not an array");
  std::vector<Ceiling> out;
  for (const auto& c : list) out.push_back(ceilingFrom(c));
  return out;
}

std::string encodeError(const std::string& message) { return cbor({{"message", message}}); }
std::string decodeError(const std::string& payload) {
  return field<std::string>(parse(payload, "error"), "message", "ErrorReply");
}

}  // namespace crucible
