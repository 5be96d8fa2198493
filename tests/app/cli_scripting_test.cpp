// SPDX-License-Identifier: GPL-3.0-or-later
// crucible-cli status, seal and export (issue 21), on the bundled sample
// project (real runs recorded on an H200) and on bad input: the exit status,
// what scripts read (--json, CSV), and that nothing is written to the project.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include "core/io/utf8_text.h"
#include "core/store/project_store.h"
#include "tests/app/run_cli.h"

namespace {

namespace fs = std::filesystem;
using crucible::cli_test::cli;

std::string bytes(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}
using crucible::cli_test::quoted;

class CliScripting : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("crucible-cli-scripting-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
    project_ = (dir_ / "sample.crucible").string();
    fs::copy_file(std::string(CRUCIBLE_SOURCE_DIR) + "/resources/sample/sample.crucible", project_);
    before_ = bytes(project_);
  }
  void TearDown() override {
    EXPECT_TRUE(bytes(project_) == before_) << "a read-only command changed the project";
    fs::remove_all(dir_);
  }
  std::string p() const { return " --project " + quoted(project_); }
  fs::path dir_;
  std::string project_;
  std::string before_;
};

TEST_F(CliScripting, StatusGivesEveryRunsProgressAndOneRunsLog) {
  const auto all = cli("status" + p() + " --json", false);
  ASSERT_EQ(all.exitCode, 0) << all.out;
  const auto runs = nlohmann::json::parse(all.out);
  ASSERT_GE(runs.size(), 4u);
  EXPECT_EQ(runs[0]["run"], 1);
  EXPECT_EQ(runs[0]["task"], "softmax_f32_1024x1024");
  EXPECT_EQ(runs[0]["status"], "finished");
  EXPECT_GT(runs[0]["evaluations"].get<int>(), 0);
  EXPECT_GT(runs[0]["best_speedup"].get<double>(), 1.0);
  EXPECT_GT(runs[0]["candidates"]["valid"].get<int>(), 0);
  const auto one = cli("status" + p() + " --run 1 --log 3");
  ASSERT_EQ(one.exitCode, 0) << one.out;
  EXPECT_NE(one.out.find("run 1 (softmax_f32_1024x1024"), std::string::npos) << one.out;
  EXPECT_EQ(one.out.find("run 2 ("), std::string::npos) << one.out;
  EXPECT_EQ(cli("status" + p() + " --run 999").exitCode, 2);
  EXPECT_EQ(cli("status" + p() + " --log 3").exitCode, 2) << "--log needs --run";
  EXPECT_EQ(cli("status --project " + quoted((dir_ / "missing.crucible").string())).exitCode, 4);
}

TEST_F(CliScripting, SealListShowAndExport) {
  const auto list = cli("seal list" + p() + " --json", false);
  ASSERT_EQ(list.exitCode, 0) << list.out;
  const auto seals = nlohmann::json::parse(list.out);
  ASSERT_FALSE(seals.empty());
  const int newest = seals[0]["seal"];
  EXPECT_EQ(seals[0]["fingerprint"]["gpu"], "NVIDIA H200");
  const auto show = cli("seal show" + p() + " " + std::to_string(newest));
  ASSERT_EQ(show.exitCode, 0) << show.out;
  EXPECT_NE(show.out.find("measured on NVIDIA H200"), std::string::npos) << show.out;
  EXPECT_NE(show.out.find("validation:"), std::string::npos) << show.out;

  const fs::path out = dir_ / "out";
  const auto exported = cli("seal export" + p() + " " + std::to_string(newest) + " --out " + quoted(out.string()) +
                            " --format flashinfer");
  ASSERT_EQ(exported.exitCode, 0) << exported.out;
  const std::string task = seals[0]["task"];
  std::ifstream in(out / (task + ".solution.json"));
  const auto solution = nlohmann::json::parse(in);
  EXPECT_EQ(solution["spec"]["target_hardware"], nlohmann::json::array({"NVIDIA_H200"}));
  EXPECT_EQ(solution["definition"], task);

  EXPECT_EQ(cli("seal show" + p() + " 9999").exitCode, 2);
  EXPECT_EQ(cli("seal show" + p() + " 1x").exitCode, 2);
  EXPECT_EQ(cli("seal export" + p() + " 1 --out " + quoted(out.string()) + " --format zip").exitCode, 2);
  EXPECT_EQ(cli("seal frobnicate" + p()).exitCode, 2);
  EXPECT_EQ(cli("seal").exitCode, 2);
}

TEST_F(CliScripting, ExportWritesEveryCandidateWithItsLineageAsJsonAndCsv) {
  const auto json = cli("export" + p() + " --run 3", false);
  ASSERT_EQ(json.exitCode, 0) << json.out;
  const auto rows = nlohmann::json::parse(json.out);
  ASSERT_FALSE(rows.empty());
  bool child = false;
  for (const auto& r : rows) {
    EXPECT_EQ(r["run"], 3);
    EXPECT_EQ(r["task"], "matmul_f32_1024x1024x1024");
    child = child || !r["parents"].empty();
  }
  EXPECT_TRUE(child) << "the lineage is in the rows";
  EXPECT_FALSE(rows[0].contains("source")) << "sources only when asked for";

  const fs::path csv = dir_ / "all.csv";
  ASSERT_EQ(cli("export" + p() + " --format csv --out " + quoted(csv.string())).exitCode, 0);
  std::ifstream in(csv);
  std::string header, line;
  std::getline(in, header);
  EXPECT_EQ(header.rfind("id,run,task,generation,parents,proposer", 0), 0u) << header;
  int lines = 0;
  while (std::getline(in, line)) ++lines;
  const auto everything = nlohmann::json::parse(cli("export" + p(), false).out);
  EXPECT_EQ(lines, static_cast<int>(everything.size())) << "one line per candidate (details are quoted)";

  EXPECT_EQ(cli("export" + p() + " --format xml").exitCode, 2);
  EXPECT_EQ(cli("export" + p() + " --format csv --sources").exitCode, 2);
  EXPECT_EQ(cli("export" + p() + " --run 0").exitCode, 2);
}

TEST_F(CliScripting, StopAsksARunningRunAndRefusesOneThatIsNot) {
  // Every run of the sample is finished: nothing to stop, and no request file is left.
  const auto done = cli("stop" + p() + " --run 1");
  EXPECT_EQ(done.exitCode, 1) << done.out;
  EXPECT_NE(done.out.find("not running"), std::string::npos) << done.out;
  EXPECT_FALSE(fs::exists(project_ + ".stop-1"));
  EXPECT_EQ(cli("stop" + p() + " --run 999").exitCode, 2);
  EXPECT_EQ(cli("stop" + p()).exitCode, 2);
  EXPECT_EQ(cli("stop" + p() + " --run 1 --wait 0").exitCode, 2);
  EXPECT_EQ(cli("stop --project " + quoted((dir_ / "missing.crucible").string()) + " --run 1").exitCode, 4);
}

TEST_F(CliScripting, KbListsTheSamplesKnowledgeAndFiltersIt) {
  const auto all = cli("kb list" + p() + " --json", false);
  ASSERT_EQ(all.exitCode, 0) << all.out;
  const auto entries = nlohmann::json::parse(all.out);
  for (const auto& e : entries) {
    EXPECT_TRUE(e.contains("claim") && e.contains("decision") && e.contains("observations")) << e.dump();
    EXPECT_EQ(e["arch"].get<std::string>().rfind("sm_", 0), 0u) << e.dump();
  }
  const auto validated = nlohmann::json::parse(cli("kb list" + p() + " --status validated --json", false).out);
  for (const auto& e : validated) EXPECT_EQ(e["status"], "validated");
  EXPECT_LE(validated.size(), entries.size());
  EXPECT_EQ(cli("kb list" + p() + " --status maybe").exitCode, 2);
  EXPECT_EQ(cli("kb frobnicate" + p()).exitCode, 2);
  EXPECT_EQ(cli("kb list --project " + quoted((dir_ / "missing.crucible").string())).exitCode, 4);
}

TEST_F(CliScripting, KbExportAndImportMoveClaimsBetweenProjects) {
  const std::string file = (dir_ / "kb.json").string();
  const auto exported = cli("kb export" + p() + " --out " + quoted(file));
  ASSERT_EQ(exported.exitCode, 0) << exported.out;
  const auto sample = nlohmann::json::parse(cli("kb list" + p() + " --json", false).out);
  ASSERT_FALSE(sample.empty()) << "the sample project has knowledge to move";
  const auto doc = nlohmann::json::parse(bytes(file));
  EXPECT_EQ(doc["kind"], "crucible-knowledge");
  EXPECT_EQ(doc["source"], "sample.crucible");
  EXPECT_EQ(doc["entries"].size(), sample.size());

  const std::string other = (dir_ / "other.crucible").string();
  ASSERT_EQ(cli("init " + quoted(other)).exitCode, 0);
  const std::string to = " --project " + quoted(other);
  const auto dry = nlohmann::json::parse(cli("kb import" + to + " --in " + quoted(file) + " --dry-run --json", false).out);
  EXPECT_EQ(dry["added"].size(), sample.size());
  EXPECT_TRUE(nlohmann::json::parse(cli("kb list" + to + " --json", false).out).empty()) << "--dry-run adds nothing";
  const auto imported = cli("kb import" + to + " --in " + quoted(file));
  ASSERT_EQ(imported.exitCode, 0) << imported.out;
  EXPECT_NE(imported.out.find("imported " + std::to_string(sample.size()) + " claim(s) from sample.crucible"),
            std::string::npos) << imported.out;
  const auto moved = nlohmann::json::parse(cli("kb list" + to + " --json", false).out);
  ASSERT_EQ(moved.size(), sample.size());
  for (std::size_t i = 0; i < moved.size(); ++i) {
    EXPECT_EQ(moved[i]["claim"], sample[i]["claim"]);
    EXPECT_EQ(moved[i]["status"], sample[i]["status"]);
    EXPECT_EQ(moved[i]["observations"], sample[i]["observations"]);
    EXPECT_TRUE(moved[i]["evidence"].empty()) << "evidence stays with the project that measured it";
  }
  // Again: everything is already known and kept as it is.
  const auto again = nlohmann::json::parse(cli("kb import" + to + " --in " + quoted(file) + " --json", false).out);
  EXPECT_TRUE(again["added"].empty());
  EXPECT_EQ(again["alreadyKnown"].size(), sample.size());

  // A damaged file adds nothing and says which field is wrong.
  auto damaged = doc;
  damaged["entries"][0]["effect"] = -2;
  const std::string bad = (dir_ / "bad.json").string();
  { std::ofstream(bad) << damaged.dump(); }
  const std::string fresh = (dir_ / "fresh.crucible").string();
  ASSERT_EQ(cli("init " + quoted(fresh)).exitCode, 0);
  const auto refused = cli("kb import --project " + quoted(fresh) + " --in " + quoted(bad));
  EXPECT_EQ(refused.exitCode, 1) << refused.out;
  EXPECT_NE(refused.out.find("entries[0].effect"), std::string::npos) << refused.out;
  EXPECT_TRUE(nlohmann::json::parse(cli("kb list --project " + quoted(fresh) + " --json", false).out).empty());
  EXPECT_EQ(cli("kb import" + to).exitCode, 2) << "--in is required";
  EXPECT_EQ(cli("kb import" + to + " --in " + quoted((dir_ / "missing.json").string())).exitCode, 2);
  EXPECT_EQ(cli("kb export" + p()).exitCode, 2) << "--out is required";
  EXPECT_EQ(cli("kb import --project " + quoted((dir_ / "missing.crucible").string()) + " --in " + quoted(file)).exitCode, 4);
}

// A log line holding bytes that are not UTF-8 (an older project, a tool's output in
// Latin-1): the JSON for scripts is still written, the bytes as U+FFFD.
TEST_F(CliScripting, TextThatIsNotUtf8IsWrittenAsReplacementCharacters) {
  crucible::ProjectStore::open(project_)->appendLog(1, "info", "took 3.2 \xB5s on \xE2\x86");
  before_ = bytes(project_);
  const auto status = cli("status" + p() + " --run 1 --log 1 --json", false);
  ASSERT_EQ(status.exitCode, 0) << status.out;
  const auto runs = nlohmann::json::parse(status.out);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0]["log"].back()["text"], "took 3.2 \xEF\xBF\xBDs on \xEF\xBF\xBD") << status.out;
}

// What a project holds reaches the terminal as text: a log line or a claim with
// escape sequences (a compiler quoting a model's kernel, a damaged or foreign
// project) is printed with its control characters written out.
TEST_F(CliScripting, ControlCharactersInAProjectArePrintedAsEscapes) {
  {
    auto store = crucible::ProjectStore::open(project_);
    store->appendLog(1, "warning", "kernel.cu(3): error in \"\x1B]0;owned\x07\"\rall clear");
    crucible::KnowledgeEntry k;
    k.scopeArch = "sm_90";
    k.decision = "vector: 1 -> \x1B[8m4";
    k.claim = "\xC2\x9B" "2J wide loads";
    k.effect = 1.2;
    k.observations = 3;
    store->addKnowledge(k);
  }
  before_ = bytes(project_);
  const auto status = cli("status" + p() + " --run 1 --log 1", false);
  ASSERT_EQ(status.exitCode, 0) << status.out;
  EXPECT_NE(status.out.find("error in \"\\x1B]0;owned\\x07\"\\x0Dall clear"), std::string::npos) << status.out;
  const auto kb = cli("kb list" + p(), false);
  ASSERT_EQ(kb.exitCode, 0) << kb.out;
  EXPECT_NE(kb.out.find("\\u009B2J wide loads"), std::string::npos) << kb.out;
  EXPECT_NE(kb.out.find("decision: vector: 1 -> \\x1B[8m4"), std::string::npos) << kb.out;
  for (const std::string* out : {&status.out, &kb.out})
    EXPECT_FALSE(crucible::firstControlCharacter(*out)) << *out;
}

TEST(CliScriptingDamaged, ADamagedProjectIsRefusedAndLeftAsItWas) {
  const fs::path file = fs::temp_directory_path() / ("crucible-damaged-" + std::to_string(::getpid()) + ".crucible");
  { std::ofstream(file) << "SQLite format 3\0 this is not a database"; }
  const std::string before = bytes(file);
  for (const std::string command : {"status", "seal list", "export", "kb list"})
    EXPECT_EQ(cli(command + " --project " + quoted(file.string())).exitCode, 4) << command;
  EXPECT_TRUE(bytes(file) == before);
  fs::remove(file);
}

}  // namespace
