// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/dispatch/slurm/slurm_settings.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

namespace crucible {
namespace {

SlurmSettings sample() {
  SlurmSettings s;
  s.sharedDirectory = "/shared/crucible";
  s.partition = "gpu";
  s.account = "lab";
  s.gpuType = "h200";
  s.concurrentJobs = 8;
  s.extraSbatchOptions = {"--qos=high", "--constraint=nvlink"};
  s.maxAttempts = 5;
  return s;
}

void expectFieldError(const nlohmann::json& j, const std::string& field) {
  try {
    slurmSettingsFromJson(j);
    FAIL() << "accepted " << j.dump();
  } catch (const SlurmSettingsError& e) {
    EXPECT_NE(std::string(e.what()).find("'" + field + "'"), std::string::npos) << e.what();
  }
}

TEST(SlurmSettings, JsonRoundTrip) {
  const SlurmSettings s = sample();
  const SlurmSettings back = slurmSettingsFromJson(toJson(s));
  EXPECT_EQ(toJson(back), toJson(s));
  EXPECT_EQ(back.gpuType, "h200");
  EXPECT_EQ(back.extraSbatchOptions.size(), 2u);
}

TEST(SlurmSettings, MissingFieldsTakeTheirDefaults) {
  const SlurmSettings s = slurmSettingsFromJson({{"sharedDirectory", "/x"}});
  EXPECT_EQ(s.maxAttempts, 3);
  EXPECT_EQ(s.gpusPerJob, 1);
  EXPECT_EQ(s.timeLimit, "00:30:00");
}

TEST(SlurmSettings, ErrorsNameTheField) {
  const nlohmann::json good = toJson(sample());
  auto with = [&](const char* field, nlohmann::json v) {
    nlohmann::json j = good;
    j[field] = v;
    return j;
  };
  expectFieldError(with("concurrentJobs", "four"), "concurrentJobs");
  expectFieldError(with("concurrentJobs", 0), "concurrentJobs");
  expectFieldError(with("maxAttempts", 0), "maxAttempts");
  expectFieldError(with("sharedDirectory", ""), "sharedDirectory");
  expectFieldError(with("sharedDirectory", "relative/path"), "sharedDirectory");
  expectFieldError(with("partition", "gpu a100"), "partition");
  expectFieldError(with("account", 7), "account");
  expectFieldError(with("gpuType", "a:b"), "gpuType");
  expectFieldError(with("timeLimit", "one hour"), "timeLimit");
  expectFieldError(with("extraSbatchOptions", "--qos=x"), "extraSbatchOptions");
  expectFieldError(with("extraSbatchOptions", nlohmann::json::array({"qos"})), "extraSbatchOptions");
  expectFieldError(with("pollSeconds", 0), "pollSeconds");
  expectFieldError(with("keepJobFolders", "yes"), "keepJobFolders");
  expectFieldError(with("partion", "gpu"), "partion");  // a typo is no setting
  EXPECT_THROW(slurmSettingsFromJson(nlohmann::json::array()), SlurmSettingsError);
}

TEST(SlurmSettings, FileRoundTripAndBadFiles) {
  const std::string file = (std::filesystem::temp_directory_path() /
                            ("crucible-slurm-settings-" + std::to_string(::getpid()) + ".json")).string();
  writeSlurmSettings(file, sample());
  EXPECT_EQ(toJson(readSlurmSettings(file)), toJson(sample()));
  std::ofstream(file) << "{ not json";
  try {
    readSlurmSettings(file);
    FAIL();
  } catch (const SlurmSettingsError& e) {
    EXPECT_NE(std::string(e.what()).find("not JSON"), std::string::npos) << e.what();
  }
  std::ofstream(file) << R"({"partition": 1e999})";  // nlohmann: out_of_range, not parse_error
  EXPECT_THROW(readSlurmSettings(file), SlurmSettingsError);
  std::remove(file.c_str());
  EXPECT_THROW(readSlurmSettings(file), SlurmSettingsError);
}

}  // namespace
}  // namespace crucible
