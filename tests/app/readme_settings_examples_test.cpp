// SPDX-License-Identifier: GPL-3.0-or-later
// The settings files README.md shows ("Language models", "Clusters (Slurm)")
// are the ones Crucible reads: each ```json block between the README's
// <!-- crucible:llm-settings --> / <!-- crucible:slurm-settings --> markers
// must pass llmSettingsFromJson / slurmSettingsFromJson as it is written.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "backends/dispatch/slurm/slurm_settings.h"
#include "backends/proposers/llm/llm_settings.h"

namespace crucible {
namespace {

std::string readme() {
  std::ifstream in(std::string(CRUCIBLE_SOURCE_DIR) + "/README.md");
  EXPECT_TRUE(in.good()) << "cannot read README.md";
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The body of the ```json block inside each <!-- crucible:NAME --> ... <!-- /crucible:NAME --> pair.
std::vector<std::string> examples(const std::string& text, const std::string& name) {
  const std::string open = "<!-- crucible:" + name + " -->", close = "<!-- /crucible:" + name + " -->";
  std::vector<std::string> out;
  for (std::size_t at = text.find(open); at != std::string::npos; at = text.find(open, at + 1)) {
    const std::size_t end = text.find(close, at);
    EXPECT_NE(end, std::string::npos) << open << " at offset " << at << " is never closed";
    if (end == std::string::npos) break;
    const std::string block = text.substr(at + open.size(), end - at - open.size());
    const std::size_t fence = block.find("```json\n");
    const std::size_t fenceEnd = block.rfind("```");
    EXPECT_TRUE(fence != std::string::npos && fenceEnd > fence) << "no ```json block in:\n" << block;
    if (fence == std::string::npos || fenceEnd <= fence) continue;
    out.push_back(block.substr(fence + 8, fenceEnd - fence - 8));
  }
  return out;
}

TEST(ReadmeSettingsExamples, LanguageModelSettingsParse) {
  const auto found = examples(readme(), "llm-settings");
  ASSERT_GE(found.size(), 1u) << "README.md has no <!-- crucible:llm-settings --> example";
  bool complete = false;
  for (const std::string& text : found) {
    llm::LlmSettings s;
    try {
      s = llm::llmSettingsFromJson(text);
    } catch (const std::exception& e) {
      ADD_FAILURE() << e.what() << "\n" << text;
      continue;
    }
    EXPECT_FALSE(s.models.empty());
    // The complete example sets every field the settings have.
    const nlohmann::json j = nlohmann::json::parse(text);
    if (j.size() == nlohmann::json::parse(llm::toJson(s)).size()) complete = true;
  }
  EXPECT_TRUE(complete) << "no README example sets every field of the language-model settings";
}

TEST(ReadmeSettingsExamples, SlurmSettingsParse) {
  const auto found = examples(readme(), "slurm-settings");
  ASSERT_GE(found.size(), 1u) << "README.md has no <!-- crucible:slurm-settings --> example";
  for (const std::string& text : found) {
    try {
      const SlurmSettings s = slurmSettingsFromJson(nlohmann::json::parse(text));
      EXPECT_FALSE(s.sharedDirectory.empty());
    } catch (const std::exception& e) {
      ADD_FAILURE() << e.what() << "\n" << text;
    }
  }
}

TEST(ReadmeSettingsExamples, ExtractionFindsEveryMarkedBlock) {
  const std::string doc =
      "x\n<!-- crucible:demo -->\n```json\n{\"a\": 1}\n```\n<!-- /crucible:demo -->\ny\n"
      "<!-- crucible:demo -->\n```json\n{\"b\": 2}\n```\n<!-- /crucible:demo -->\n";
  EXPECT_EQ(examples(doc, "demo"), (std::vector<std::string>{"{\"a\": 1}\n", "{\"b\": 2}\n"}));
}

}  // namespace
}  // namespace crucible
