// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/dispatch/worker_messages.h"

#include "core/model/model_json.h"

namespace crucible {

using nlohmann::json;

namespace {

// Decodes a CBOR payload with fn, reporting any fault as a MessageError: bad
// CBOR, or a missing or mistyped field (the domain codec's ModelJsonError).
template <typename Decode>
auto decodePayload(const std::string& payload, const char* what, Decode fn) {
  json j;
  try {
    j = json::from_cbor(payload);
  } catch (const json::exception& e) {
    throw MessageError(std::string("malformed ") + what + " message: " + e.what());
  }
  try {
    return fn(j);
  } catch (const ModelJsonError& e) {
    throw MessageError(e.what());
  }
}

std::string cbor(const json& j) {
  const auto bytes = json::to_cbor(j);
  return std::string(bytes.begin(), bytes.end());
}

json binary(const std::string& bytes) { return json::binary(std::vector<std::uint8_t>(bytes.begin(), bytes.end())); }

std::string bytesOf(const json& j, const char* key, const char* what) {
  const json& b = requiredMember(j, key, what);
  if (!b.is_binary()) throw MessageError(std::string(what) + ": field '" + key + "': expected binary bytes");
  const auto& v = b.get_binary();
  return std::string(v.begin(), v.end());
}

KernelBinary kernelFrom(const json& j) {
  KernelBinary k;
  k.cubin = bytesOf(j, "cubin", "KernelBinary");
  k.launch = launchRuleFromJson(requiredMember(j, "launch", "KernelBinary"));
  return k;
}

CandidateStatus statusFrom(const json& j, const char* what) {
  try {
    return candidateStatusFromString(requiredField<std::string>(j, "status", what));
  } catch (const ModelJsonError&) {
    throw;
  } catch (const std::invalid_argument& e) {
    throw MessageError(std::string(what) + ": field 'status': " + e.what());
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
json toJson(const KernelBinary& k) { return {{"cubin", binary(k.cubin)}, {"launch", crucible::toJson(k.launch)}}; }
}  // namespace wire

std::string encodeHello(const Hello& h) {
  return cbor({{"protocol", h.protocol}, {"pid", h.pid}, {"device", toJson(h.device)}, {"error", h.error}});
}

Hello decodeHello(const std::string& payload) {
  return decodePayload(payload, "hello", [](const json& j) {
    constexpr const char* w = "Hello";
    Hello h;
    h.protocol = requiredField<int>(j, "protocol", w);
    h.pid = requiredField<std::int64_t>(j, "pid", w);
    h.device = fingerprintFromJson(requiredMember(j, "device", w));
    h.error = requiredField<std::string>(j, "error", w);
    return h;
  });
}

std::string encodeFingerprint(const Fingerprint& f) { return cbor(toJson(f)); }
Fingerprint decodeFingerprint(const std::string& payload) {
  return decodePayload(payload, "device", [](const json& j) { return fingerprintFromJson(j); });
}

std::string encodeEvaluationRequest(const EvaluationRequest& r) {
  return cbor({{"task", r.task ? toJson(*r.task) : json(nullptr)},
               {"candidate", wire::toJson(r.candidate)},
               {"reference", wire::toJson(r.reference)},
               {"seeds", r.seeds},
               {"time", r.time},
               {"extended", r.extended}});
}

OwnedEvaluationRequest decodeEvaluationRequest(const std::string& payload) {
  return decodePayload(payload, "evaluate", [](const json& j) {
    constexpr const char* w = "EvaluationRequest";
    OwnedEvaluationRequest out;
    if (const json& t = requiredMember(j, "task", w); !t.is_null()) out.task = std::make_unique<Task>(taskFromJson(t));
    out.request.task = out.task.get();
    out.request.candidate = kernelFrom(requiredMember(j, "candidate", w));
    out.request.reference = kernelFrom(requiredMember(j, "reference", w));
    out.request.seeds = requiredField<std::vector<std::uint64_t>>(j, "seeds", w);
    out.request.time = requiredField<bool>(j, "time", w);
    out.request.extended = requiredField<bool>(j, "extended", w);
    return out;
  });
}

std::string encodeEvaluation(const Evaluation& e) {
  return cbor({{"status", toString(e.status)},
               {"detail", e.detail},
               {"trials", toJson(e.trials)},
               {"timing", e.timing ? toJson(*e.timing) : json(nullptr)},
               {"gpuSeconds", e.gpuSeconds},
               {"validateSeconds", e.validateSeconds},
               {"timeSeconds", e.timeSeconds}});
}

Evaluation decodeEvaluation(const std::string& payload) {
  return decodePayload(payload, "evaluation", [](const json& j) {
    constexpr const char* w = "Evaluation";
    Evaluation e;
    e.status = statusFrom(j, w);
    e.detail = requiredField<std::string>(j, "detail", w);
    e.trials = validationTrialsFromJson(requiredMember(j, "trials", w));
    if (const json& t = requiredMember(j, "timing", w); !t.is_null()) e.timing = timingFromJson(t);
    e.gpuSeconds = requiredField<double>(j, "gpuSeconds", w);
    // Optional: a worker of an older build does not say how its seconds split.
    if (auto it = j.find("validateSeconds"); it != j.end() && it->is_number()) e.validateSeconds = it->get<double>();
    if (auto it = j.find("timeSeconds"); it != j.end() && it->is_number()) e.timeSeconds = it->get<double>();
    return e;
  });
}

std::string encodeProfileRequest(const Task& task, const KernelBinary& kernel) {
  return cbor({{"task", toJson(task)}, {"kernel", wire::toJson(kernel)}});
}

ProfileRequest decodeProfileRequest(const std::string& payload) {
  return decodePayload(payload, "profile request", [](const json& j) {
    constexpr const char* w = "ProfileRequest";
    return ProfileRequest{taskFromJson(requiredMember(j, "task", w)), kernelFrom(requiredMember(j, "kernel", w))};
  });
}

std::string encodeProfileResult(const ProfileResult& p) {
  return cbor({{"permitted", p.permitted}, {"detail", p.detail}, {"metrics", profileToJson(p.metrics)}});
}

ProfileResult decodeProfileResult(const std::string& payload) {
  return decodePayload(payload, "profile result", [](const json& j) {
    constexpr const char* w = "ProfileResult";
    ProfileResult p;
    p.permitted = requiredField<bool>(j, "permitted", w);
    p.detail = requiredField<std::string>(j, "detail", w);
    p.metrics = profileFromJson(requiredMember(j, "metrics", w));
    return p;
  });
}

std::string encodeCeilings(const std::vector<Ceiling>& c) {
  json list = json::array();
  for (const auto& x : c) list.push_back(toJson(x));
  return cbor({{"ceilings", list}});
}

std::vector<Ceiling> decodeCeilings(const std::string& payload) {
  return decodePayload(payload, "ceilings", [](const json& j) {
    const json& list = requiredMember(j, "ceilings", "Ceilings");
    if (!list.is_array()) throw MessageError("Ceilings: field 'ceilings': expected an array");
    std::vector<Ceiling> out;
    for (const auto& c : list) out.push_back(ceilingFromJson(c));
    return out;
  });
}

void recordTimingDevice(Evaluation& e, const Fingerprint& device) {
  if (e.timing && !recorded(e.timing->device)) e.timing->device = device;
}

std::string encodeError(const std::string& message) { return cbor({{"message", message}}); }
std::string decodeError(const std::string& payload) {
  return decodePayload(payload, "error",
                       [](const json& j) { return requiredField<std::string>(j, "message", "ErrorReply"); });
}

}  // namespace crucible
