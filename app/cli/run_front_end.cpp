// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/run_front_end.h"

#include <filesystem>
#include <nlohmann/json.hpp>
#include "backends/proposers/llm/chat.h"
#include "core/io/bounded_file.h"

namespace crucible::cli {
namespace {

constexpr std::size_t kMaxSettingsBytes = 1 << 20;

std::string readSettingsFile(const std::string& option, const std::string& file) {
  try {
    return readBoundedFile(file, kMaxSettingsBytes, "settings file");
  } catch (const BoundedFileError& e) {
    throw UsageError("--" + option + ": " + e.what());
  }
}

std::string absolute(const std::string& path) {
  std::error_code ec;
  const auto a = std::filesystem::absolute(path, ec);
  return ec ? path : a.lexically_normal().string();
}

}  // namespace

FrontEnd frontEndFromOptions(const Options& o, const std::optional<FrontEnd>& stored) {
  FrontEnd f = stored.value_or(FrontEnd{});
  if (o.has("proposer")) {
    f.proposer = o.value("proposer");
    if (f.proposer != "template" && f.proposer != "llm")
      throw UsageError("--proposer must be template or llm, not '" + f.proposer + "'");
    if (f.proposer == "template") f.llmSettingsFile.clear();
  }
  if (o.has("llm-settings")) {
    if (f.proposer != "llm") throw UsageError("--llm-settings needs --proposer llm");
    if (o.value("llm-settings").empty()) throw UsageError("--llm-settings needs a file name");
    f.llmSettingsFile = absolute(o.value("llm-settings"));
  }
  if (f.proposer == "llm" && f.llmSettingsFile.empty())
    throw UsageError("--proposer llm needs --llm-settings FILE (README.md, \"Language models\")");
  if (o.has("dispatch")) {
    f.dispatch = o.value("dispatch");
    if (f.dispatch != "local" && f.dispatch != "slurm")
      throw UsageError("--dispatch must be local or slurm, not '" + f.dispatch + "'");
    if (f.dispatch == "local") f.slurmSettingsFile.clear();
  }
  if (o.has("slurm-settings")) {
    if (f.dispatch != "slurm") throw UsageError("--slurm-settings needs --dispatch slurm");
    if (o.value("slurm-settings").empty()) throw UsageError("--slurm-settings needs a file name");
    f.slurmSettingsFile = absolute(o.value("slurm-settings"));
  }
  if (f.dispatch == "slurm" && f.slurmSettingsFile.empty())
    throw UsageError("--dispatch slurm needs --slurm-settings FILE (README.md, \"Clusters (Slurm)\")");
  return f;
}

llm::LlmSettings readLlmSettings(const std::string& file) {
  const std::string text = readSettingsFile("llm-settings", file);
  llm::LlmSettings s;
  try {
    s = llm::llmSettingsFromJson(text);
  } catch (const llm::LlmSettingsError& e) {
    throw UsageError("--llm-settings " + file + ": " + e.what());
  }
  // Preflight: a key variable that is named but unset fails every request;
  // say so now. The key itself is read and dropped, never shown.
  try {
    (void)llm::resolveApiKey(s);
  } catch (const llm::ChatError& e) {
    throw UsageError("--llm-settings " + file + ": " + e.what());
  }
  return s;
}

SlurmSettings readSlurmSettingsFile(const std::string& file) {
  const std::string text = readSettingsFile("slurm-settings", file);
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded()) throw UsageError("--slurm-settings " + file + ": not JSON");
  try {
    SlurmSettings s = slurmSettingsFromJson(j);
    validate(s);
    return s;
  } catch (const SlurmSettingsError& e) {
    throw UsageError("--slurm-settings " + file + ": " + e.what());
  } catch (const nlohmann::json::exception& e) {
    throw UsageError("--slurm-settings " + file + ": " + e.what());
  }
}

std::string withFrontEnd(const std::string& settingsJson, const FrontEnd& f) {
  nlohmann::json j = nlohmann::json::parse(settingsJson, nullptr, false);
  if (j.is_discarded() || !j.is_object()) j = nlohmann::json::object();
  nlohmann::json fe = {{"proposer", f.proposer}, {"dispatch", f.dispatch}};
  if (!f.llmSettingsFile.empty()) fe["llmSettings"] = f.llmSettingsFile;
  if (!f.slurmSettingsFile.empty()) fe["slurmSettings"] = f.slurmSettingsFile;
  j["frontEnd"] = fe;
  return j.dump();
}

std::optional<FrontEnd> frontEndOf(const std::string& settingsJson) {
  const nlohmann::json j = nlohmann::json::parse(settingsJson, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("frontEnd")) return std::nullopt;
  const nlohmann::json& fe = j["frontEnd"];
  FrontEnd f;
  const auto text = [&](const char* key, std::string& out) {
    if (!fe.contains(key)) return;
    if (!fe[key].is_string()) throw UsageError(std::string("the run's stored frontEnd.") + key + " is not a string");
    out = fe[key].get<std::string>();
  };
  if (!fe.is_object()) throw UsageError("the run's stored frontEnd is not an object");
  text("proposer", f.proposer);
  text("llmSettings", f.llmSettingsFile);
  text("dispatch", f.dispatch);
  text("slurmSettings", f.slurmSettingsFile);
  if ((f.proposer != "template" && f.proposer != "llm") || (f.dispatch != "local" && f.dispatch != "slurm") ||
      (f.proposer == "llm" && f.llmSettingsFile.empty()) || (f.dispatch == "slurm" && f.slurmSettingsFile.empty()))
    throw UsageError("the run's stored frontEnd is not a valid choice: " + fe.dump());
  return f;
}

}  // namespace crucible::cli
