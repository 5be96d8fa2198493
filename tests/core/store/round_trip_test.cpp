// SPDX-License-Identifier: GPL-3.0-or-later
// Every entity written to the store comes back as it was written.
#include <gtest/gtest.h>

#include "core/store/project_store.h"
#include "tests/core/store/store_test_support.h"

using namespace crucible;
using namespace crucible::store_test;

namespace {

void expectSameCandidate(const Candidate& a, const Candidate& b) {
  EXPECT_EQ(a.runId, b.runId);
  EXPECT_EQ(a.generation, b.generation);
  EXPECT_EQ(a.source, b.source);
  EXPECT_EQ(a.launch.entry, b.launch.entry);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(a.launch.grid[i], b.launch.grid[i]);
    EXPECT_EQ(a.launch.block[i], b.launch.block[i]);
  }
  EXPECT_EQ(a.launch.dynamicSmemBytes, b.launch.dynamicSmemBytes);
  EXPECT_EQ(a.launch.tensorMaps, b.launch.tensorMaps);
  EXPECT_EQ(a.parents, b.parents);
  EXPECT_EQ(a.proposer, b.proposer);
  EXPECT_EQ(a.mutation, b.mutation);
  EXPECT_EQ(a.metaPrompt, b.metaPrompt);
  EXPECT_EQ(a.genomeJson, b.genomeJson);
  EXPECT_EQ(a.architectureKey, b.architectureKey);
  EXPECT_EQ(a.descriptor, b.descriptor);
  EXPECT_EQ(a.status, b.status);
  EXPECT_EQ(a.statusDetail, b.statusDetail);
  ASSERT_EQ(a.compile.has_value(), b.compile.has_value());
  if (a.compile) {
    const auto &x = *a.compile, &y = *b.compile;
    EXPECT_EQ(x.ok, y.ok);
    EXPECT_EQ(x.arch, y.arch);
    ASSERT_EQ(x.diagnostics.size(), y.diagnostics.size());
    for (std::size_t i = 0; i < x.diagnostics.size(); ++i) {
      EXPECT_EQ(x.diagnostics[i].line, y.diagnostics[i].line);
      EXPECT_EQ(x.diagnostics[i].column, y.diagnostics[i].column);
      EXPECT_EQ(x.diagnostics[i].severity, y.diagnostics[i].severity);
      EXPECT_EQ(x.diagnostics[i].message, y.diagnostics[i].message);
    }
    EXPECT_EQ(x.log, y.log);
    EXPECT_EQ(x.registers, y.registers);
    EXPECT_EQ(x.staticSmemBytes, y.staticSmemBytes);
    EXPECT_EQ(x.localBytes, y.localBytes);
    EXPECT_EQ(x.spillStoreBytes, y.spillStoreBytes);
    EXPECT_EQ(x.spillLoadBytes, y.spillLoadBytes);
    EXPECT_EQ(x.maxThreadsPerBlock, y.maxThreadsPerBlock);
    EXPECT_EQ(x.features, y.features);
    EXPECT_EQ(x.seconds, y.seconds);
  }
  ASSERT_EQ(a.validation.size(), b.validation.size());
  for (std::size_t i = 0; i < a.validation.size(); ++i) {
    EXPECT_EQ(a.validation[i].seed, b.validation[i].seed);
    EXPECT_EQ(a.validation[i].passed, b.validation[i].passed);
    EXPECT_EQ(a.validation[i].reason, b.validation[i].reason);
    EXPECT_EQ(a.validation[i].maxAbsError, b.validation[i].maxAbsError);
    EXPECT_EQ(a.validation[i].maxRelError, b.validation[i].maxRelError);
    EXPECT_EQ(a.validation[i].mismatches, b.validation[i].mismatches);
  }
  ASSERT_EQ(a.timing.has_value(), b.timing.has_value());
  if (a.timing) {
    EXPECT_EQ(a.timing->samplesUs, b.timing->samplesUs);  // exact: doubles round-trip bit for bit
    EXPECT_EQ(a.timing->medianUs, b.timing->medianUs);
    EXPECT_EQ(a.timing->iqrUs, b.timing->iqrUs);
    EXPECT_EQ(a.timing->referenceMedianUs, b.timing->referenceMedianUs);
    EXPECT_EQ(a.timing->referenceIqrUs, b.timing->referenceIqrUs);
    EXPECT_EQ(a.timing->speedup, b.timing->speedup);
    EXPECT_EQ(a.timing->smClockMHz, b.timing->smClockMHz);
  }
  EXPECT_EQ(a.profile, b.profile);
  EXPECT_EQ(a.fitness, b.fitness);
  EXPECT_EQ(a.createdAt, b.createdAt);
}

class StoreRoundTrip : public ::testing::Test {
protected:
  void SetUp() override {
    store = ProjectStore::create(dir.file("p.crucible"));
    taskId = store->addTask(sampleTask());
    runId = store->addRun(sampleRun(taskId));
  }
  ScratchDir dir;
  std::unique_ptr<ProjectStore> store;
  TaskId taskId = 0;
  RunId runId = 0;
};

TEST_F(StoreRoundTrip, NewProjectHasTheCurrentSchema) {
  EXPECT_EQ(store->schemaVersion(), ProjectStore::currentSchemaVersion());
  EXPECT_GE(ProjectStore::currentSchemaVersion(), 2);
}

TEST_F(StoreRoundTrip, CreateRefusesAnExistingFile) {
  const auto path = dir.file("p.crucible");
  const auto before = fileBytes(path);
  try {
    ProjectStore::create(path);
    FAIL() << "create() overwrote an existing file";
  } catch (const StoreError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("exists"), std::string::npos) << e.what();
  }
  EXPECT_EQ(fileBytes(path), before);
}

TEST_F(StoreRoundTrip, Tasks) {
  const auto t = store->task(taskId);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->id, taskId);
  EXPECT_EQ(t->name, sampleTask().name);
  EXPECT_EQ(t->family, "softmax");
  EXPECT_EQ(t->specJson, sampleTask().specJson);
  EXPECT_EQ(t->specVersion, 3);
  EXPECT_EQ(store->taskByName(sampleTask().name)->id, taskId);
  EXPECT_FALSE(store->taskByName("nope"));
  EXPECT_FALSE(store->task(taskId + 100));
  const TaskId second = store->addTask(sampleTask("matmul"));
  ASSERT_EQ(store->tasks().size(), 2u);
  EXPECT_EQ(store->tasks()[1].id, second);
  try {
    store->addTask(sampleTask());
    FAIL() << "duplicate task name accepted";
  } catch (const StoreError& e) {
    EXPECT_NE(std::string(e.what()).find(sampleTask().name), std::string::npos) << e.what();
  }
}

TEST_F(StoreRoundTrip, Runs) {
  crucible::Run expected = sampleRun(taskId);
  auto r = store->run(runId);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->id, runId);
  EXPECT_EQ(r->taskId, taskId);
  EXPECT_EQ(r->name, expected.name);
  EXPECT_EQ(r->proposer, expected.proposer);
  EXPECT_EQ(r->seed, expected.seed);
  EXPECT_EQ(r->budget.evaluations, expected.budget.evaluations);
  EXPECT_EQ(r->budget.wallSeconds, expected.budget.wallSeconds);
  EXPECT_EQ(r->budget.gpuSeconds, expected.budget.gpuSeconds);
  EXPECT_EQ(r->gated, true);
  EXPECT_EQ(r->settingsJson, expected.settingsJson);
  EXPECT_EQ(r->status, RunStatus::Running);
  EXPECT_EQ(r->referenceCandidate, 0);
  EXPECT_EQ(r->createdAt, expected.createdAt);
  EXPECT_EQ(r->evaluationsDone, 17);
  EXPECT_EQ(r->wallSecondsUsed, 12.5);
  EXPECT_EQ(r->gpuSecondsUsed, 3.25);
  EXPECT_EQ(r->bestSpeedup, 1.75);

  const CandidateId ref = store->addCandidate(fullCandidate(runId));
  r->referenceCandidate = ref;
  r->status = RunStatus::Paused;
  r->evaluationsDone = 18;
  r->bestSpeedup = 2.5;
  r->createdAt = 1;  // not updatable
  store->updateRun(*r);
  const auto u = store->run(runId);
  EXPECT_EQ(u->referenceCandidate, ref);
  EXPECT_EQ(u->status, RunStatus::Paused);
  EXPECT_EQ(u->evaluationsDone, 18);
  EXPECT_EQ(u->bestSpeedup, 2.5);
  EXPECT_EQ(u->createdAt, expected.createdAt);
  EXPECT_EQ(store->runs().size(), 1u);

  crucible::Run missing = *u;
  missing.id = 999;
  EXPECT_THROW(store->updateRun(missing), StoreError);
}

TEST_F(StoreRoundTrip, CandidateWithEveryFieldComesBackEqual) {
  const MetaPromptId prompt = store->addMetaPrompt({0, runId, 0, "mutate:vector_width", "widen loads", 0, 0});
  const CandidateId p1 = store->addCandidate(fullCandidate(runId));
  const CandidateId p2 = store->addCandidate(fullCandidate(runId));
  // Parents in a deliberate non-sorted order: the order is part of the lineage.
  const Candidate written = fullCandidate(runId, {p2, p1}, prompt);
  const CandidateId id = store->addCandidate(written);
  const auto read = store->candidate(id);
  ASSERT_TRUE(read);
  EXPECT_EQ(read->id, id);
  expectSameCandidate(written, *read);
  EXPECT_FALSE(store->candidate(id + 1000));
}

TEST_F(StoreRoundTrip, CandidateWithTensorMapsKeepsThemInOrder) {
  Candidate c = fullCandidate(runId);
  c.launch.tensorMaps = {{"B", 64, 128, "none"}, {"A", 128, 64, "128B"}};
  const auto read = store->candidate(store->addCandidate(c));
  ASSERT_TRUE(read);
  expectSameCandidate(c, *read);
  ASSERT_EQ(read->launch.tensorMaps.size(), 2u);
  EXPECT_EQ(read->launch.tensorMaps[0].tensor, "B");
  EXPECT_EQ(read->launch.tensorMaps[1].swizzle, "128B");
}

TEST_F(StoreRoundTrip, CandidateWithoutReportsKeepsThemAbsent) {
  Candidate c;
  c.runId = runId;
  c.source = "__global__ void k() {}";
  c.launch.entry = "k";
  c.createdAt = 5;
  const auto read = store->candidate(store->addCandidate(c));
  ASSERT_TRUE(read);
  expectSameCandidate(c, *read);
  EXPECT_FALSE(read->compile);
  EXPECT_FALSE(read->timing);
}

TEST_F(StoreRoundTrip, UpdateCandidateChangesTheMeasuredFields) {
  Candidate c;
  c.runId = runId;
  c.source = "src";
  c.createdAt = 9;
  c.id = store->addCandidate(c);
  Candidate measured = fullCandidate(runId);
  measured.id = c.id;
  measured.parents = {};
  store->updateCandidate(measured);
  const auto read = store->candidate(c.id);
  ASSERT_TRUE(read);
  // Measured fields are updated...
  EXPECT_EQ(read->status, CandidateStatus::Valid);
  EXPECT_EQ(read->statusDetail, measured.statusDetail);
  EXPECT_EQ(read->descriptor, measured.descriptor);
  ASSERT_TRUE(read->compile);
  EXPECT_EQ(read->compile->registers, 40);
  ASSERT_EQ(read->validation.size(), 2u);
  ASSERT_TRUE(read->timing);
  EXPECT_EQ(read->timing->samplesUs, measured.timing->samplesUs);
  EXPECT_EQ(read->profile, measured.profile);
  EXPECT_EQ(read->fitness, measured.fitness);
  // ...identity and provenance are not.
  EXPECT_EQ(read->source, "src");
  EXPECT_EQ(read->createdAt, 9);
  EXPECT_EQ(read->generation, 0);

  Candidate missing = measured;
  missing.id = 12345;
  EXPECT_THROW(store->updateCandidate(missing), StoreError);
}

TEST_F(StoreRoundTrip, SummariesCarryLineageAndFiguresInIdOrder) {
  const TaskId otherTask = store->addTask(sampleTask("other"));
  const RunId otherRun = store->addRun(sampleRun(otherTask));
  const CandidateId a = store->addCandidate(fullCandidate(runId));
  const CandidateId b = store->addCandidate(fullCandidate(otherRun));
  const CandidateId c = store->addCandidate(fullCandidate(runId, {a, b}));
  Candidate noReports;
  noReports.runId = runId;
  noReports.parents = {c};
  const CandidateId d = store->addCandidate(noReports);

  const auto all = store->candidateSummaries();
  ASSERT_EQ(all.size(), 4u);
  EXPECT_EQ(all[0].id, a);
  EXPECT_EQ(all[1].id, b);
  EXPECT_EQ(all[2].id, c);
  EXPECT_EQ(all[3].id, d);
  EXPECT_TRUE(all[0].parents.empty());
  EXPECT_EQ(all[2].parents, (std::vector<CandidateId>{a, b}));
  EXPECT_EQ(all[3].parents, (std::vector<CandidateId>{c}));
  const Candidate full = fullCandidate(runId);
  EXPECT_EQ(all[2].generation, full.generation);
  EXPECT_EQ(all[2].proposer, full.proposer);
  EXPECT_EQ(all[2].mutation, full.mutation);
  EXPECT_EQ(all[2].architectureKey, full.architectureKey);
  EXPECT_EQ(all[2].status, CandidateStatus::Valid);
  EXPECT_EQ(all[2].medianUs, full.timing->medianUs);
  EXPECT_EQ(all[2].speedup, full.timing->speedup);
  EXPECT_EQ(all[2].fitness, full.fitness);
  EXPECT_EQ(all[2].registers, 40);
  EXPECT_EQ(all[3].medianUs, 0);
  EXPECT_EQ(all[3].status, CandidateStatus::Proposed);

  const auto mine = store->candidateSummaries(runId);
  ASSERT_EQ(mine.size(), 3u);
  EXPECT_EQ(mine[1].id, c);
  EXPECT_EQ(mine[1].parents, (std::vector<CandidateId>{a, b}));  // a parent from another run still shows
  EXPECT_EQ(store->candidateSummaries(otherRun).size(), 1u);
  EXPECT_EQ(store->candidateCount(), 4);
  EXPECT_EQ(store->candidateCount(runId), 3);
  EXPECT_EQ(store->candidateCount(otherRun), 1);

  const auto valid = store->candidatesWithStatus(runId, CandidateStatus::Valid);
  ASSERT_EQ(valid.size(), 2u);
  EXPECT_EQ(valid[0].id, a);
  EXPECT_EQ(valid[1].id, c);
  EXPECT_EQ(valid[1].parents, (std::vector<CandidateId>{a, b}));
  EXPECT_EQ(valid[1].source, full.source);
  EXPECT_TRUE(store->candidatesWithStatus(runId, CandidateStatus::Faulted).empty());
}

TEST_F(StoreRoundTrip, ACandidateMustBelongToAStoredRun) {
  Candidate orphan = fullCandidate(runId + 50);
  try {
    store->addCandidate(orphan);
    FAIL() << "candidate of a missing run accepted";
  } catch (const StoreError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind(dir.file("p.crucible") + ": cannot add candidate: ", 0), 0u) << message;
    EXPECT_NE(message.find("FOREIGN KEY"), std::string::npos) << message;
  }
  EXPECT_EQ(store->candidateCount(), 0);  // the failed add left nothing behind
}

TEST_F(StoreRoundTrip, ArchiveCellsUpsertByRunIslandAndKey) {
  const CandidateId a = store->addCandidate(fullCandidate(runId));
  const CandidateId b = store->addCandidate(fullCandidate(runId));
  store->putArchiveCell({runId, 0, "mem=reg;vec=4", a, 1.5, 3, 1});
  store->putArchiveCell({runId, 1, "mem=reg;vec=4", a, 1.2, 0, 0});
  store->putArchiveCell({runId, 0, "mem=smem;vec=1", b, 0.9, 1, 0});
  store->putArchiveCell({runId, 0, "mem=reg;vec=4", b, 2.0, 4, 2});  // replaces the first
  const auto cells = store->archive(runId);
  ASSERT_EQ(cells.size(), 3u);
  EXPECT_EQ(cells[0].island, 0);
  EXPECT_EQ(cells[0].key, "mem=reg;vec=4");
  EXPECT_EQ(cells[0].elite, b);
  EXPECT_EQ(cells[0].fitness, 2.0);
  EXPECT_EQ(cells[0].selections, 4);
  EXPECT_EQ(cells[0].improvements, 2);
  EXPECT_EQ(cells[0].runId, runId);
  EXPECT_EQ(cells[1].key, "mem=smem;vec=1");
  EXPECT_EQ(cells[2].island, 1);
  EXPECT_EQ(cells[2].elite, a);
  EXPECT_TRUE(store->archive(runId + 1).empty());
}

TEST_F(StoreRoundTrip, RemovingAnArchiveCellLeavesTheOthers) {
  const CandidateId a = store->addCandidate(fullCandidate(runId));
  store->putArchiveCell({runId, 0, "mem=reg;vec=4", a, 1.5, 3, 1});
  store->putArchiveCell({runId, 1, "mem=reg;vec=4", a, 1.2, 0, 0});
  store->putArchiveCell({runId, 0, "mem=smem;vec=1", a, 0.9, 1, 0});
  store->removeArchiveCell(runId, 0, "mem=reg;vec=4");
  store->removeArchiveCell(runId, 0, "mem=reg;vec=4");   // absent: nothing happens
  store->removeArchiveCell(runId + 1, 0, "mem=smem;vec=1");
  const auto cells = store->archive(runId);
  ASSERT_EQ(cells.size(), 2u);
  EXPECT_EQ(cells[0].island, 0);
  EXPECT_EQ(cells[0].key, "mem=smem;vec=1");
  EXPECT_EQ(cells[1].island, 1);
  EXPECT_EQ(cells[1].key, "mem=reg;vec=4");
}

TEST_F(StoreRoundTrip, VerdictsUpsertByRunAndArchitecture) {
  EXPECT_FALSE(store->verdict(runId, "vec=4"));
  store->recordVerdict({runId, "vec=4", false, "too many registers", 100});
  store->recordVerdict({runId, "vec=2", true, "", 200});
  store->recordVerdict({runId, "vec=4", true, "changed my mind", 300});
  const auto v = store->verdict(runId, "vec=4");
  ASSERT_TRUE(v);
  EXPECT_TRUE(v->accepted);
  EXPECT_EQ(v->note, "changed my mind");
  EXPECT_EQ(v->decidedAt, 300);
  EXPECT_EQ(v->runId, runId);
  const auto all = store->verdicts(runId);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].architectureKey, "vec=2");
  EXPECT_EQ(all[1].architectureKey, "vec=4");
}

TEST_F(StoreRoundTrip, KnowledgeRoundTripsAndIsSearchable) {
  const CandidateId a = store->addCandidate(fullCandidate(runId));
  const CandidateId b = store->addCandidate(fullCandidate(runId));
  KnowledgeEntry k;
  k.scopeArch = "sm_90";
  k.scopeFamily = "softmax";
  k.scopeShape = "rows>=4096";
  k.claim = "16-byte global loads beat 4-byte loads for row reductions";
  k.decision = "vec=4";
  k.effect = 1.31;
  k.observations = 12;
  k.status = KnowledgeStatus::Validated;
  k.probe = "probe:vector_load_width";
  k.evidence = {b, a};
  k.updatedAt = 1700000555;
  k.id = store->addKnowledge(k);
  KnowledgeEntry other;
  other.scopeArch = "sm_100";
  other.claim = "a warp shuffle reduction beats a shared-memory tree";
  other.decision = "reduce=shfl";
  other.updatedAt = 7;
  other.id = store->addKnowledge(other);

  auto all = store->knowledge();
  ASSERT_EQ(all.size(), 2u);
  const auto& r = all[0];
  EXPECT_EQ(r.id, k.id);
  EXPECT_EQ(r.scopeArch, k.scopeArch);
  EXPECT_EQ(r.scopeFamily, k.scopeFamily);
  EXPECT_EQ(r.scopeShape, k.scopeShape);
  EXPECT_EQ(r.claim, k.claim);
  EXPECT_EQ(r.decision, k.decision);
  EXPECT_EQ(r.effect, k.effect);
  EXPECT_EQ(r.observations, k.observations);
  EXPECT_EQ(r.status, k.status);
  EXPECT_EQ(r.probe, k.probe);
  EXPECT_EQ(r.evidence, k.evidence);
  EXPECT_EQ(r.updatedAt, k.updatedAt);
  EXPECT_TRUE(all[1].evidence.empty());

  auto hits = store->searchKnowledge("loads");
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(hits[0].id, k.id);
  EXPECT_EQ(hits[0].evidence, k.evidence);
  EXPECT_EQ(store->searchKnowledge("16-byte row").size(), 1u);  // punctuation is not query syntax
  EXPECT_EQ(store->searchKnowledge("sm_100")[0].id, other.id);  // scope is indexed
  EXPECT_EQ(store->searchKnowledge("shuf*")[0].id, other.id);   // prefix
  EXPECT_TRUE(store->searchKnowledge("loads shuffle").empty());  // all words required
  EXPECT_TRUE(store->searchKnowledge("tensor").empty());
  EXPECT_EQ(store->searchKnowledge("  ").size(), 2u);
  // Control characters separate words (FTS5 reads a NUL as the query's end).
  EXPECT_EQ(store->searchKnowledge(std::string("16-byte\0row", 11)).size(), 1u);
  EXPECT_EQ(store->searchKnowledge("\x1Bloads\x07").size(), 1u);

  // Updating re-indexes: the old words no longer match, the new ones do.
  k.claim = "tensor memory accelerator copies hide latency";
  k.status = KnowledgeStatus::Refuted;
  k.evidence = {a};
  store->updateKnowledge(k);
  EXPECT_TRUE(store->searchKnowledge("loads").empty());
  hits = store->searchKnowledge("tensor");
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(hits[0].status, KnowledgeStatus::Refuted);
  EXPECT_EQ(hits[0].evidence, (std::vector<CandidateId>{a}));

  KnowledgeEntry missing = k;
  missing.id = 999;
  EXPECT_THROW(store->updateKnowledge(missing), StoreError);
}

TEST_F(StoreRoundTrip, SealsAreNewestFirst) {
  const TaskId other = store->addTask(sampleTask("other"));
  const CandidateId c = store->addCandidate(fullCandidate(runId));
  EXPECT_FALSE(store->latestSeal(taskId));
  Seal s;
  s.taskId = taskId;
  s.candidateId = c;
  s.runId = runId;
  s.speedup = 1.4;
  s.medianUs = 10.5;
  s.validationReportJson = R"({"seeds":5})";
  s.performanceReportJson = R"({"median":10.5})";
  s.fingerprint = {"NVIDIA H200", "sm_90", "580.159.04", "13.0", "13.0", 1980, 3201, "gpu-node-1"};
  s.sealedAt = 2000;
  const SealId middle = store->addSeal(s);
  s.sealedAt = 3000;
  s.speedup = 1.6;
  const SealId newest = store->addSeal(s);
  s.sealedAt = 1000;
  const SealId oldest = store->addSeal(s);
  s.taskId = other;
  s.runId = 0;
  s.sealedAt = 5000;
  const SealId otherTask = store->addSeal(s);

  const auto mine = store->seals(taskId);
  ASSERT_EQ(mine.size(), 3u);
  EXPECT_EQ(mine[0].id, newest);
  EXPECT_EQ(mine[1].id, middle);
  EXPECT_EQ(mine[2].id, oldest);
  const auto latest = store->latestSeal(taskId);
  ASSERT_TRUE(latest);
  EXPECT_EQ(latest->id, newest);
  EXPECT_EQ(latest->taskId, taskId);
  EXPECT_EQ(latest->candidateId, c);
  EXPECT_EQ(latest->runId, runId);
  EXPECT_EQ(latest->speedup, 1.6);
  EXPECT_EQ(latest->medianUs, 10.5);
  EXPECT_EQ(latest->validationReportJson, s.validationReportJson);
  EXPECT_EQ(latest->performanceReportJson, s.performanceReportJson);
  EXPECT_EQ(latest->fingerprint.gpu, "NVIDIA H200");
  EXPECT_EQ(latest->fingerprint.arch, "sm_90");
  EXPECT_EQ(latest->fingerprint.driver, "580.159.04");
  EXPECT_EQ(latest->fingerprint.cudaRuntime, "13.0");
  EXPECT_EQ(latest->fingerprint.nvrtc, "13.0");
  EXPECT_EQ(latest->fingerprint.smClockMHz, 1980);
  EXPECT_EQ(latest->fingerprint.memClockMHz, 3201);
  EXPECT_EQ(latest->fingerprint.host, "gpu-node-1");
  EXPECT_EQ(latest->sealedAt, 3000);
  const auto all = store->seals();
  ASSERT_EQ(all.size(), 4u);
  EXPECT_EQ(all[0].id, otherTask);
  EXPECT_EQ(all[0].runId, 0);
  EXPECT_EQ(store->latestSeal(other)->id, otherTask);
}

TEST_F(StoreRoundTrip, MetaPromptsOfARunIncludeTheGlobalOnes) {
  const RunId otherRun = store->addRun(sampleRun(taskId));
  const MetaPromptId global = store->addMetaPrompt({0, 0, 0, "global", "be bold", 1, 0});
  const MetaPromptId mine = store->addMetaPrompt({0, runId, global, "mine", "vectorise", 5, 2});
  store->addMetaPrompt({0, otherRun, 0, "theirs", "tile", 0, 0});
  auto prompts = store->metaPrompts(runId);
  ASSERT_EQ(prompts.size(), 2u);
  EXPECT_EQ(prompts[0].id, global);
  EXPECT_EQ(prompts[0].runId, 0);
  EXPECT_EQ(prompts[1].id, mine);
  EXPECT_EQ(prompts[1].runId, runId);
  EXPECT_EQ(prompts[1].parent, global);
  EXPECT_EQ(prompts[1].name, "mine");
  EXPECT_EQ(prompts[1].text, "vectorise");
  EXPECT_EQ(prompts[1].uses, 5);
  EXPECT_EQ(prompts[1].improvements, 2);
  EXPECT_EQ(store->metaPrompts(0).size(), 1u);

  MetaPrompt m = prompts[1];
  m.uses = 6;
  m.improvements = 3;
  m.text = "vectorise harder";
  store->updateMetaPrompt(m);
  prompts = store->metaPrompts(runId);
  EXPECT_EQ(prompts[1].uses, 6);
  EXPECT_EQ(prompts[1].improvements, 3);
  EXPECT_EQ(prompts[1].text, "vectorise harder");
  m.id = 999;
  EXPECT_THROW(store->updateMetaPrompt(m), StoreError);
}

TEST_F(StoreRoundTrip, CeilingsUpsertByDeviceAndName) {
  store->putCeiling({"NVIDIA H200", "dram_bw", 4.1e12, 4.8e12, "B/s", 10});
  store->putCeiling({"NVIDIA H200", "fp32_fma", 6.0e13, 6.7e13, "FLOP/s", 11});
  store->putCeiling({"NVIDIA B200", "dram_bw", 7.0e12, 8.0e12, "B/s", 12});
  store->putCeiling({"NVIDIA H200", "dram_bw", 4.2e12, 4.8e12, "B/s", 20});
  const auto h200 = store->ceilings("NVIDIA H200");
  ASSERT_EQ(h200.size(), 2u);
  EXPECT_EQ(h200[0].name, "dram_bw");
  EXPECT_EQ(h200[0].measured, 4.2e12);
  EXPECT_EQ(h200[0].datasheet, 4.8e12);
  EXPECT_EQ(h200[0].unit, "B/s");
  EXPECT_EQ(h200[0].measuredAt, 20);
  EXPECT_EQ(h200[0].device, "NVIDIA H200");
  EXPECT_EQ(h200[1].name, "fp32_fma");
  EXPECT_EQ(store->ceilings().size(), 3u);
  EXPECT_TRUE(store->ceilings("nothing").empty());
}

TEST_F(StoreRoundTrip, TuningCacheRemembersTheLatestCandidatePerConfiguration) {
  const CandidateId a = store->addCandidate(fullCandidate(runId));
  const CandidateId b = store->addCandidate(fullCandidate(runId));
  EXPECT_FALSE(store->lookupTuning(taskId, "vec=4;bm=128"));
  store->recordTuning(taskId, "vec=4;bm=128", a);
  store->recordTuning(taskId, "vec=2;bm=128", b);
  EXPECT_EQ(store->lookupTuning(taskId, "vec=4;bm=128"), a);
  store->recordTuning(taskId, "vec=4;bm=128", b);
  EXPECT_EQ(store->lookupTuning(taskId, "vec=4;bm=128"), b);
  EXPECT_EQ(store->lookupTuning(taskId, "vec=2;bm=128"), b);
  EXPECT_FALSE(store->lookupTuning(taskId + 1, "vec=4;bm=128"));
}

TEST_F(StoreRoundTrip, LogPagesByIdPerRun) {
  const RunId otherRun = store->addRun(sampleRun(taskId));
  for (int i = 0; i < 25; ++i) store->appendLog(i % 5 == 0 ? otherRun : runId, "info", "line " + std::to_string(i));
  store->appendLog(0, "warning", "project-wide");
  store->appendLog(runId, "error", "last");
  EXPECT_THROW(store->appendLog(runId, "debug", "x"), StoreError);

  std::vector<std::string> texts;
  std::int64_t after = 0;
  for (;;) {
    const auto page = store->log(runId, after, 7);
    if (page.empty()) break;
    EXPECT_LE(page.size(), 7u);
    for (const auto& line : page) {
      EXPECT_GT(line.id, after);
      EXPECT_EQ(line.runId, runId);
      EXPECT_GT(line.at, 1600000000000);  // unix milliseconds
      texts.push_back(line.text);
      after = line.id;
    }
  }
  ASSERT_EQ(texts.size(), 21u);  // 20 info lines of this run + "last"
  EXPECT_EQ(texts.front(), "line 1");
  EXPECT_EQ(texts.back(), "last");
  EXPECT_EQ(store->log(runId).back().level, "error");
  const auto all = store->log(0);
  ASSERT_EQ(all.size(), 27u);
  EXPECT_EQ(all[25].runId, 0);
  EXPECT_EQ(all[25].level, "warning");
  EXPECT_EQ(store->log(otherRun).size(), 5u);
}

TEST_F(StoreRoundTrip, AReopenedProjectKeepsEverything) {
  const CandidateId parent = store->addCandidate(fullCandidate(runId));
  const Candidate written = fullCandidate(runId, {parent, parent});
  const CandidateId id = store->addCandidate(written);
  KnowledgeEntry k;
  k.claim = "cp.async pipelines hide global latency";
  k.evidence = {id};
  store->addKnowledge(k);
  store->putArchiveCell({runId, 2, "pipe=2", id, 3.5, 1, 1});
  store.reset();

  store = ProjectStore::open(dir.file("p.crucible"));
  const auto read = store->candidate(id);
  ASSERT_TRUE(read);
  expectSameCandidate(written, *read);
  ASSERT_EQ(store->searchKnowledge("latency").size(), 1u);
  EXPECT_EQ(store->searchKnowledge("latency")[0].evidence, (std::vector<CandidateId>{id}));
  ASSERT_EQ(store->archive(runId).size(), 1u);
  EXPECT_EQ(store->archive(runId)[0].elite, id);
  EXPECT_EQ(store->candidateCount(runId), 2);
  EXPECT_EQ(store->run(runId)->seed, sampleRun(taskId).seed);
}

TEST_F(StoreRoundTrip, TransactionsNestAndRollBackTogether) {
  EXPECT_THROW(store->transaction([&] {
    store->addCandidate(fullCandidate(runId));
    store->transaction([&] { store->addCandidate(fullCandidate(runId)); });
    throw std::runtime_error("abort");
  }),
               std::runtime_error);
  EXPECT_EQ(store->candidateCount(), 0);

  // A nested failure that the outer function handles undoes only the nested part.
  store->transaction([&] {
    store->addCandidate(fullCandidate(runId));
    try {
      store->transaction([&] {
        store->addCandidate(fullCandidate(runId));
        throw std::runtime_error("inner");
      });
    } catch (const std::runtime_error&) {
    }
  });
  EXPECT_EQ(store->candidateCount(), 1);
}

}  // namespace
