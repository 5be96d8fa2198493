// SPDX-License-Identifier: GPL-3.0-or-later
// Review on read-only storage (a read-only mount; a folder without write
// permission): a project opens read-only in either mode, every read works,
// every write says "the project is open read-only (<why>)", and nothing
// appears beside the file. On writable storage, reading leaves no -wal/-shm
// behind either, and a clean close of a writer removes them.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <functional>
#include <set>

#include "core/store/project_store.h"
#include "core/store/storage_access.h"
#include "tests/core/store/read_only_view.h"
#include "tests/core/store/store_test_support.h"

using namespace crucible;
using namespace crucible::store_test;
using crucible::test_support::ReadOnlyView;

namespace {

std::set<std::string> namesIn(const std::filesystem::path& folder) {
  std::set<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) names.insert(entry.path().filename().string());
  return names;
}

bool hasSideFiles(const std::string& project) {
  return std::filesystem::exists(project + "-wal") || std::filesystem::exists(project + "-shm");
}

// A project with something in every part that the views read.
void fillProject(const std::string& path) {
  auto store = ProjectStore::create(path);
  const TaskId task = store->addTask(sampleTask());
  const RunId run = store->addRun(sampleRun(task));
  const CandidateId c = store->addCandidate(fullCandidate(run));
  store->putArchiveCell({run, 0, "vec=4;smem=0", c, 1.7, 2, 1});
  store->recordVerdict({run, "vec=4;smem=0", true, "fine", 1700000200});
  KnowledgeEntry k;
  k.scopeArch = "sm_90";
  k.claim = "16-byte loads beat 4-byte loads for row reductions";
  k.decision = "vec=4";
  k.evidence = {c};
  store->addKnowledge(k);
  store->putCeiling({"NVIDIA H200", "dram_bw", 4.0e12, 4.8e12, "B/s", 7});
  store->appendLog(run, "info", "started");
}

// Every kind of write, each expected to fail naming the file and the reason.
void expectEveryWriteRefused(ProjectStore& store, const std::string& why) {
  const std::string expected = "the project is open read-only (" + why + ")";
  const Run run = store.runs().front();
  const Candidate c = *store.candidate(store.candidateSummaries(run.id).front().id);
  const std::vector<std::pair<const char*, std::function<void()>>> writes{
      {"addTask", [&] { store.addTask(sampleTask("another")); }},
      {"addRun", [&] { store.addRun(sampleRun(run.taskId)); }},
      {"updateRun", [&] { store.updateRun(run); }},
      {"addCandidate", [&] { store.addCandidate(fullCandidate(run.id)); }},
      {"updateCandidate", [&] { store.updateCandidate(c); }},
      {"recordTuning", [&] { store.recordTuning(run.taskId, "cfg", c.id); }},
      {"putArchiveCell", [&] { store.putArchiveCell({run.id, 1, "k", c.id, 1, 0, 0}); }},
      {"recordVerdict", [&] { store.recordVerdict({run.id, "k", false, "", 1}); }},
      {"addKnowledge", [&] { store.addKnowledge(store.knowledge().front()); }},
      {"updateKnowledge", [&] { store.updateKnowledge(store.knowledge().front()); }},
      {"addMetaPrompt", [&] { store.addMetaPrompt({0, run.id, 0, "m", "t", 0, 0}); }},
      {"putCeiling", [&] { store.putCeiling({"gpu", "dram_bw", 1, 1, "B/s", 1}); }},
      {"appendLog", [&] { store.appendLog(run.id, "info", "x"); }},
      {"transaction", [&] { store.transaction([] {}); }},
  };
  for (const auto& [name, write] : writes) {
    try {
      write();
      ADD_FAILURE() << name << " wrote to a read-only project";
    } catch (const StoreError& e) {
      const std::string message = e.what();
      EXPECT_EQ(message.rfind(store.path() + ": ", 0), 0u) << name << ": " << message;
      EXPECT_NE(message.find(expected), std::string::npos) << name << ": " << message;
    }
  }
}

void expectEveryReadWorks(const ProjectStore& store) {
  ASSERT_EQ(store.tasks().size(), 1u);
  ASSERT_EQ(store.runs().size(), 1u);
  const RunId run = store.runs().front().id;
  const auto summaries = store.candidateSummaries(run);
  ASSERT_EQ(summaries.size(), 1u);
  ASSERT_TRUE(store.candidate(summaries.front().id));
  EXPECT_EQ(store.candidate(summaries.front().id)->source, fullCandidate(run).source);
  EXPECT_EQ(store.candidateCount(run), 1);
  EXPECT_EQ(store.archive(run).size(), 1u);
  EXPECT_EQ(store.verdicts(run).size(), 1u);
  EXPECT_EQ(store.knowledge().size(), 1u);
  EXPECT_EQ(store.searchKnowledge("loads").size(), 1u);
  EXPECT_EQ(store.ceilings().size(), 1u);
  EXPECT_EQ(store.log(run).size(), 1u);
  EXPECT_TRUE(store.seals().empty());
  EXPECT_EQ(store.schemaVersion(), ProjectStore::currentSchemaVersion());
  store.dataVersion();
}

class ReadOnlyStorage : public ::testing::Test {
protected:
  void SetUp() override { fillProject(source_.file("p.crucible")); }
  ScratchDir source_;
};

TEST_F(ReadOnlyStorage, AProjectOpensForReviewInEitherModeAndEveryWriteSaysWhy) {
  const auto bytes = fileBytes(source_.file("p.crucible"));
  ReadOnlyView view(std::filesystem::path(source_.file("p.crucible")).parent_path());
  if (!view.problem().empty()) GTEST_SKIP() << view.problem();
  const std::string path = view.file("p.crucible");
  const auto before = namesIn(view.path());
  const std::string why = ProjectStore::writeProblem(path);
  ASSERT_FALSE(why.empty()) << "the view is writable";
  for (auto mode : {ProjectStore::Mode::ReadWrite, ProjectStore::Mode::ReadOnly}) {
    auto store = ProjectStore::open(path, mode);
    EXPECT_TRUE(store->readOnly());
    EXPECT_EQ(store->readOnlyReason(), why);
    expectEveryReadWorks(*store);
    expectEveryWriteRefused(*store, why);
  }
  EXPECT_EQ(namesIn(view.path()), before) << "reading made files beside the project";
  EXPECT_TRUE(fileBytes(path) == bytes);
}

TEST_F(ReadOnlyStorage, ANewProjectCannotBeCreatedThereAndNothingIsLeft) {
  ReadOnlyView view(std::filesystem::path(source_.file("p.crucible")).parent_path());
  if (!view.problem().empty()) GTEST_SKIP() << view.problem();
  const auto before = namesIn(view.path());
  for (auto create : {&ProjectStore::create, &ProjectStore::openOrCreate}) {
    try {
      create(view.file("new.crucible"));
      ADD_FAILURE() << "created a project on read-only storage";
    } catch (const StoreError& e) {
      EXPECT_NE(std::string(e.what()).find(view.file("new.crucible") + ": cannot create: "), std::string::npos)
          << e.what();
    }
  }
  EXPECT_EQ(namesIn(view.path()), before);
}

// Commits still in the -wal (a writer's copy taken mid-run, a crash): the
// reader sees them where SQLite can share the log, and says why it cannot
// where the -shm it needs is missing, rather than show the project without them.
TEST(ReadOnlyStorageWal, CommitsStillInTheLogAreReadOrTheOpenSaysWhyNot) {
  ScratchDir writerDir, withShm, withoutShm;
  const std::string writerPath = writerDir.file("p.crucible");
  {
    auto writer = ProjectStore::create(writerPath);
    writer->addTask(sampleTask());
    ASSERT_TRUE(std::filesystem::exists(writerPath + "-wal"));
    for (const ScratchDir* copy : {&withShm, &withoutShm})
      for (const char* suffix : {"", "-wal", "-shm"})
        if (copy == &withShm || std::string(suffix) != "-shm")
          std::filesystem::copy_file(writerPath + suffix, copy->file("p.crucible") + suffix);
  }
  {
    ReadOnlyView view(std::filesystem::path(withShm.file("p.crucible")).parent_path());
    if (!view.problem().empty()) GTEST_SKIP() << view.problem();
    auto store = ProjectStore::open(view.file("p.crucible"), ProjectStore::Mode::ReadOnly);
    EXPECT_EQ(store->tasks().size(), 1u) << "the task committed to the log is missing";
  }
  ReadOnlyView view(std::filesystem::path(withoutShm.file("p.crucible")).parent_path());
  try {
    auto store = ProjectStore::open(view.file("p.crucible"), ProjectStore::Mode::ReadOnly);
    // Some SQLite builds can read the log without a -shm: then it must see the commit.
    EXPECT_EQ(store->tasks().size(), 1u) << "the task committed to the log is missing";
  } catch (const StoreError& e) {
    EXPECT_NE(std::string(e.what()).find("write-ahead log"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("open the project once where it can be written"), std::string::npos)
        << e.what();
  }
}

// A file without write permission in a folder that has it: read-only, and
// nothing made beside it though the folder would take it.
TEST(ReadOnlyStorageFile, AReadOnlyFileInAWritableFolderOpensForReview) {
  if (::geteuid() == 0) GTEST_SKIP() << "root writes a file whatever its mode: the mount tests cover root";
  ScratchDir dir;
  const std::string path = dir.file("p.crucible");
  fillProject(path);
  std::filesystem::permissions(path, std::filesystem::perms::owner_write, std::filesystem::perm_options::remove);
  EXPECT_EQ(ProjectStore::writeProblem(path), "the file is not writable");
  {
    auto store = ProjectStore::open(path);
    EXPECT_TRUE(store->readOnly());
    expectEveryReadWorks(*store);
    expectEveryWriteRefused(*store, "the file is not writable");
  }
  EXPECT_FALSE(hasSideFiles(path));
  std::filesystem::permissions(path, std::filesystem::perms::owner_write, std::filesystem::perm_options::add);
}

// Which connection reads a project, for every kind of storage.
TEST(StorageAccess, AConnectionThatOnlyReadsFitsTheStorage) {
  using store_detail::accessForInspection;
  using store_detail::accessForReading;
  using store_detail::ReadAccess;
  using store_detail::StorageFacts;
  const StorageFacts writable{"", false, false}, writableWithLog{"", true, false}, writableWithJournal{"", false, true};
  const StorageFacts readOnly{"it is on a read-only file system", false, false};
  const StorageFacts readOnlyWithLog{"it is on a read-only file system", true, false};
  // Writable: a connection that cleans up after itself, except that a log
  // beside a file not yet judged is never replayed into it.
  EXPECT_EQ(accessForInspection(writable), ReadAccess::CleaningUp);
  EXPECT_EQ(accessForInspection(writableWithLog), ReadAccess::Plain);
  EXPECT_EQ(accessForInspection(writableWithJournal), ReadAccess::Plain);
  EXPECT_EQ(accessForReading(writableWithLog), ReadAccess::CleaningUp);
  // Read-only: the file alone where it is the whole project; else SQLite's read-only mode, which reads the log.
  EXPECT_EQ(accessForInspection(readOnly), ReadAccess::Immutable);
  EXPECT_EQ(accessForReading(readOnly), ReadAccess::Immutable);
  EXPECT_EQ(accessForInspection(readOnlyWithLog), ReadAccess::Plain);
  EXPECT_EQ(accessForReading(readOnlyWithLog), ReadAccess::Plain);
}

// ---------------------------------------------------------------- writable storage: nothing left beside

TEST(ProjectSideFiles, ACleanCloseOfAWriterRemovesTheLogAndTheSharedMemory) {
  ScratchDir dir;
  const std::string path = dir.file("p.crucible");
  {
    auto store = ProjectStore::create(path);
    store->addTask(sampleTask());
    EXPECT_TRUE(hasSideFiles(path)) << "WAL mode keeps a -wal and -shm while open";
  }
  EXPECT_FALSE(hasSideFiles(path));
  EXPECT_EQ(namesIn(std::filesystem::path(path).parent_path()), std::set<std::string>{"p.crucible"});
}

TEST(ProjectSideFiles, ReadingLeavesNothingBesideAProjectThatHadNothing) {
  ScratchDir dir;
  const std::string path = dir.file("p.crucible");
  fillProject(path);
  ASSERT_FALSE(hasSideFiles(path));
  const auto bytes = fileBytes(path);
  {
    auto store = ProjectStore::open(path, ProjectStore::Mode::ReadOnly);
    expectEveryReadWorks(*store);
    EXPECT_EQ(store->readOnlyReason(), "opened for reading");
    expectEveryWriteRefused(*store, "opened for reading");
  }
  EXPECT_FALSE(hasSideFiles(path));
  EXPECT_TRUE(fileBytes(path) == bytes) << "reading changed the file";
}

TEST(ProjectSideFiles, AReaderClosingBeforeTheWriterLeavesTheWritersFilesAlone) {
  ScratchDir dir;
  const std::string path = dir.file("p.crucible");
  auto writer = ProjectStore::create(path);
  writer->addTask(sampleTask());
  {
    auto reader = ProjectStore::open(path, ProjectStore::Mode::ReadOnly);
    EXPECT_EQ(reader->tasks().size(), 1u);
  }
  writer->addTask(sampleTask("second"));  // its log is still there and still works
  EXPECT_EQ(ProjectStore::open(path, ProjectStore::Mode::ReadOnly)->tasks().size(), 2u);
  writer.reset();
  EXPECT_FALSE(hasSideFiles(path));
  EXPECT_EQ(ProjectStore::open(path, ProjectStore::Mode::ReadOnly)->tasks().size(), 2u);
}

TEST(ProjectSideFiles, ARefusedProjectGetsNoFilesBesideIt) {
  ScratchDir dir;
  // A WAL-mode file a newer Crucible wrote, and a WAL-mode SQLite file that is not a project.
  const std::string newer = dir.file("newer.crucible");
  ProjectStore::create(newer);
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(newer.c_str(), &db), SQLITE_OK);
    sqlite3_exec(db, "PRAGMA user_version = 999", nullptr, nullptr, nullptr);
    sqlite3_close(db);
  }
  const std::string foreign = dir.file("foreign.sqlite");
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(foreign.c_str(), &db), SQLITE_OK);
    sqlite3_exec(db, "PRAGMA journal_mode = WAL; CREATE TABLE t(x);", nullptr, nullptr, nullptr);
    sqlite3_close(db);
  }
  for (const std::string& path : {newer, foreign}) {
    ASSERT_FALSE(hasSideFiles(path)) << path;
    const auto bytes = fileBytes(path);
    for (auto mode : {ProjectStore::Mode::ReadWrite, ProjectStore::Mode::ReadOnly})
      EXPECT_THROW(ProjectStore::open(path, mode), StoreError) << path;
    EXPECT_FALSE(hasSideFiles(path)) << path;
    EXPECT_TRUE(fileBytes(path) == bytes) << path;
  }
}

}  // namespace
