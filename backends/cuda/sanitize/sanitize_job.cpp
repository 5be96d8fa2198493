// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/sanitize/sanitize_job.h"

#include <fstream>
#include <sstream>
#include <stdexcept>
#include "core/model/model_json.h"

namespace crucible {
namespace {

constexpr const char* kTaskFile = "task.json";
constexpr const char* kCubinFile = "kernel.cubin";
constexpr const char* kLaunchFile = "launch.json";

void writeFile(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

std::string readFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

void writeSanitizeJob(const std::filesystem::path& dir, const SanitizeJob& job) {
  writeFile(dir / kTaskFile, job.taskSpecJson);
  writeFile(dir / kCubinFile, job.cubin);
  writeFile(dir / kLaunchFile, toJson(job.launch).dump());
}

SanitizeJob readSanitizeJob(const std::filesystem::path& dir) {
  SanitizeJob job;
  job.taskSpecJson = readFile(dir / kTaskFile);
  job.cubin = readFile(dir / kCubinFile);
  if (job.cubin.empty()) throw std::runtime_error((dir / kCubinFile).string() + " is empty");
  const std::string launch = readFile(dir / kLaunchFile);
  try {
    job.launch = launchRuleFromJson(nlohmann::json::parse(launch));
  } catch (const std::exception& e) {
    throw std::runtime_error((dir / kLaunchFile).string() + ": " + e.what());
  }
  return job;
}

}  // namespace crucible
