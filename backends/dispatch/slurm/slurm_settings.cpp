// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/dispatch/slurm/slurm_settings.h"

#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

namespace crucible {
namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& field, const std::string& why) {
  throw SlurmSettingsError("slurm settings: '" + field + "' " + why);
}

template <typename T>
void read(const json& j, const char* field, T& out) {
  if (!j.contains(field)) return;
  const json& v = j.at(field);
  if constexpr (std::is_same_v<T, std::string>) {
    if (!v.is_string()) fail(field, "must be a string");
    out = v.get<std::string>();
  } else if constexpr (std::is_same_v<T, bool>) {
    if (!v.is_boolean()) fail(field, "must be true or false");
    out = v.get<bool>();
  } else if constexpr (std::is_same_v<T, int>) {
    if (!v.is_number_integer()) fail(field, "must be an integer");
    const auto n = v.get<std::int64_t>();
    if (n < -1000000000 || n > 1000000000) fail(field, "is out of range");
    out = static_cast<int>(n);
  } else if constexpr (std::is_same_v<T, double>) {
    if (!v.is_number()) fail(field, "must be a number");
    out = v.get<double>();
  } else {
    if (!v.is_array()) fail(field, "must be a list of strings");
    out.clear();
    for (const auto& e : v) {
      if (!e.is_string()) fail(field, "must be a list of strings");
      out.push_back(e.get<std::string>());
    }
  }
}

bool hasSpace(const std::string& s) { return s.find_first_of(" \t\n\r") != std::string::npos; }

}  // namespace

void validate(const SlurmSettings& s) {
  if (s.sharedDirectory.empty()) fail("sharedDirectory", "is required (a folder every node sees)");
  if (s.sharedDirectory.front() != '/') fail("sharedDirectory", "must be an absolute path");
  if (s.concurrentJobs < 1 || s.concurrentJobs > 100000) fail("concurrentJobs", "must be between 1 and 100000");
  if (s.gpusPerJob < 0 || s.gpusPerJob > 64) fail("gpusPerJob", "must be between 0 and 64");
  if (s.maxAttempts < 1 || s.maxAttempts > 100) fail("maxAttempts", "must be between 1 and 100");
  if (!(s.pollSeconds >= 0.05 && s.pollSeconds <= 3600)) fail("pollSeconds", "must be between 0.05 and 3600");
  if (!(s.batchWindowSeconds >= 0 && s.batchWindowSeconds <= 3600))
    fail("batchWindowSeconds", "must be between 0 and 3600");
  if (s.maxArraySize < 1 || s.maxArraySize > 1000000) fail("maxArraySize", "must be between 1 and 1000000");
  if (!(s.resultGraceSeconds >= 0 && s.resultGraceSeconds <= 3600))
    fail("resultGraceSeconds", "must be between 0 and 3600");
  if (!(s.commandTimeoutSeconds >= 1 && s.commandTimeoutSeconds <= 3600))
    fail("commandTimeoutSeconds", "must be between 1 and 3600");
  // Each becomes one sbatch argument: a space or comma would smuggle in another.
  if (hasSpace(s.partition)) fail("partition", "must have no spaces (several partitions: a,b)");
  if (hasSpace(s.account) || s.account.find(',') != std::string::npos) fail("account", "must be one word");
  if (hasSpace(s.gpuType) || s.gpuType.find(',') != std::string::npos) fail("gpuType", "must be one word");
  if (s.timeLimit.empty() || s.timeLimit.find_first_not_of("0123456789:-") != std::string::npos)
    fail("timeLimit", "must be a Slurm time (minutes, MM:SS, HH:MM:SS or D-HH:MM:SS)");
  if (s.gpuType.find(':') != std::string::npos) fail("gpuType", "must not contain ':'");
  for (const auto& o : s.extraSbatchOptions)
    if (o.empty() || o.front() != '-') fail("extraSbatchOptions", "holds '" + o + "', which is not an option (--name=value)");
}

nlohmann::json toJson(const SlurmSettings& s) {
  return json{{"sharedDirectory", s.sharedDirectory},
              {"workerExecutable", s.workerExecutable},
              {"workerArguments", s.workerArguments},
              {"concurrentJobs", s.concurrentJobs},
              {"partition", s.partition},
              {"account", s.account},
              {"gpuType", s.gpuType},
              {"gpusPerJob", s.gpusPerJob},
              {"timeLimit", s.timeLimit},
              {"extraSbatchOptions", s.extraSbatchOptions},
              {"maxAttempts", s.maxAttempts},
              {"pollSeconds", s.pollSeconds},
              {"batchWindowSeconds", s.batchWindowSeconds},
              {"maxArraySize", s.maxArraySize},
              {"resultGraceSeconds", s.resultGraceSeconds},
              {"commandTimeoutSeconds", s.commandTimeoutSeconds},
              {"slurmBinDirectory", s.slurmBinDirectory},
              {"keepJobFolders", s.keepJobFolders}};
}

SlurmSettings slurmSettingsFromJson(const nlohmann::json& j) {
  if (!j.is_object()) throw SlurmSettingsError("slurm settings: the document must be a JSON object");
  const json known = toJson(SlurmSettings{});
  for (const auto& [key, value] : j.items())
    if (!known.contains(key)) fail(key, "is not a setting");
  SlurmSettings s;
  read(j, "sharedDirectory", s.sharedDirectory);
  read(j, "workerExecutable", s.workerExecutable);
  read(j, "workerArguments", s.workerArguments);
  read(j, "concurrentJobs", s.concurrentJobs);
  read(j, "partition", s.partition);
  read(j, "account", s.account);
  read(j, "gpuType", s.gpuType);
  read(j, "gpusPerJob", s.gpusPerJob);
  read(j, "timeLimit", s.timeLimit);
  read(j, "extraSbatchOptions", s.extraSbatchOptions);
  read(j, "maxAttempts", s.maxAttempts);
  read(j, "pollSeconds", s.pollSeconds);
  read(j, "batchWindowSeconds", s.batchWindowSeconds);
  read(j, "maxArraySize", s.maxArraySize);
  read(j, "resultGraceSeconds", s.resultGraceSeconds);
  read(j, "commandTimeoutSeconds", s.commandTimeoutSeconds);
  read(j, "slurmBinDirectory", s.slurmBinDirectory);
  read(j, "keepJobFolders", s.keepJobFolders);
  validate(s);
  return s;
}

SlurmSettings readSlurmSettings(const std::string& file) {
  std::ifstream in(file);
  if (!in) throw SlurmSettingsError("slurm settings: cannot open " + file);
  json j;
  try {
    j = json::parse(in);
  } catch (const json::exception& e) {  // parse_error, or out_of_range for a number like 1e999
    throw SlurmSettingsError("slurm settings: " + file + " is not JSON: " + e.what());
  }
  try {
    return slurmSettingsFromJson(j);
  } catch (const SlurmSettingsError& e) {
    throw SlurmSettingsError(file + ": " + e.what());
  }
}

void writeSlurmSettings(const std::string& file, const SlurmSettings& s) {
  validate(s);
  const std::string temp = file + ".tmp";
  {
    std::ofstream out(temp, std::ios::trunc);
    out << toJson(s).dump(2) << "\n";
    if (!out) throw SlurmSettingsError("slurm settings: cannot write " + temp);
  }
  if (std::rename(temp.c_str(), file.c_str()) != 0)
    throw SlurmSettingsError("slurm settings: cannot replace " + file);
}

}  // namespace crucible
