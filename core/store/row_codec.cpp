// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/store/row_codec.h"

#include <chrono>
#include <map>

#include "core/model/model_json.h"

namespace crucible::store_detail {
using nlohmann::json;

std::int64_t nowSeconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}
std::int64_t nowMilliseconds() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

Task decodeTask(const Statement& s) {
  Task t;
  t.id = s.int64At(0);
  t.name = s.textAt(1);
  t.family = s.textAt(2);
  t.specJson = s.textAt(3);
  t.specVersion = s.intAt(4);
  return t;
}

Run decodeRun(const Statement& s) {
  Run r;
  r.id = s.int64At(0);
  r.taskId = s.int64At(1);
  r.name = s.textAt(2);
  r.proposer = s.textAt(3);
  r.seed = fromStored(s.int64At(4));
  r.budget.evaluations = s.int64At(5);
  r.budget.wallSeconds = s.doubleAt(6);
  r.budget.gpuSeconds = s.doubleAt(7);
  r.gated = s.int64At(8) != 0;
  r.settingsJson = s.textAt(9);
  r.status = runStatusFromString(s.textAt(10));
  r.referenceCandidate = s.int64At(11);
  r.createdAt = s.int64At(12);
  r.evaluationsDone = s.int64At(13);
  r.wallSecondsUsed = s.doubleAt(14);
  r.gpuSecondsUsed = s.doubleAt(15);
  r.bestSpeedup = s.doubleAt(16);
  return r;
}

// Everything but the parents (lineage rows).
Candidate decodeCandidate(const Statement& s) {
  Candidate c;
  c.id = s.int64At(0);
  c.runId = s.int64At(1);
  c.generation = s.intAt(2);
  c.proposer = s.textAt(3);
  c.mutation = s.textAt(4);
  c.metaPrompt = s.int64At(5);
  c.architectureKey = s.textAt(6);
  c.status = candidateStatusFromString(s.textAt(7));
  c.fitness = s.doubleAt(8);
  c.createdAt = s.int64At(9);
  c.statusDetail = s.textAt(10);
  c.launch = launchRuleFromJson(json::parse(s.textAt(11)));
  c.genomeJson = s.textAt(12);
  c.descriptor = json::parse(s.textAt(13)).get<std::map<std::string, std::string>>();
  // Figures missing from a row read as NaN ("not measured"), not as an error.
  if (!s.isNull(14)) c.compile = compileReportFromJson(json::parse(s.textAt(14)), MissingFigures::ReadAsNaN);
  c.validation = validationTrialsFromJson(json::parse(s.textAt(15)), MissingFigures::ReadAsNaN);
  if (!s.isNull(16)) c.timing = timingFromJson(json::parse(s.textAt(16)), MissingFigures::ReadAsNaN);
  c.profile = profileFromJson(json::parse(s.textAt(17)));
  c.source = s.textAt(18);
  return c;
}

KnowledgeEntry decodeKnowledge(const Statement& s) {
  KnowledgeEntry k;
  k.id = s.int64At(0);
  k.scopeArch = s.textAt(1);
  k.scopeFamily = s.textAt(2);
  k.scopeShape = s.textAt(3);
  k.claim = s.textAt(4);
  k.decision = s.textAt(5);
  k.effect = s.doubleAt(6);
  k.observations = s.int64At(7);
  k.status = knowledgeStatusFromString(s.textAt(8));
  k.probe = s.textAt(9);
  k.updatedAt = s.int64At(10);
  return k;
}

Seal decodeSeal(const Statement& s) {
  Seal seal;
  seal.id = s.int64At(0);
  seal.taskId = s.int64At(1);
  seal.candidateId = s.int64At(2);
  seal.runId = s.int64At(3);
  seal.speedup = s.doubleAt(4);
  seal.medianUs = s.doubleAt(5);
  seal.validationReportJson = s.textAt(6);
  seal.performanceReportJson = s.textAt(7);
  seal.fingerprint.gpu = s.textAt(8);
  seal.fingerprint.arch = s.textAt(9);
  seal.fingerprint.driver = s.textAt(10);
  seal.fingerprint.cudaRuntime = s.textAt(11);
  seal.fingerprint.nvrtc = s.textAt(12);
  seal.fingerprint.smClockMHz = s.doubleAt(13);
  seal.fingerprint.memClockMHz = s.doubleAt(14);
  seal.fingerprint.host = s.textAt(15);
  seal.sealedAt = s.int64At(16);
  return seal;
}

MetaPrompt decodeMetaPrompt(const Statement& s) {
  MetaPrompt m;
  m.id = s.int64At(0);
  m.runId = s.int64At(1);
  m.parent = s.int64At(2);
  m.name = s.textAt(3);
  m.text = s.textAt(4);
  m.uses = s.int64At(5);
  m.improvements = s.int64At(6);
  return m;
}

CandidateSummary decodeSummary(const Statement& s) {
  CandidateSummary c;
  c.id = s.int64At(0);
  c.runId = s.int64At(1);
  c.generation = s.intAt(2);
  c.proposer = s.textAt(3);
  c.mutation = s.textAt(4);
  c.architectureKey = s.textAt(5);
  c.status = candidateStatusFromString(s.textAt(6));
  c.medianUs = s.doubleAt(7);
  c.speedup = s.doubleAt(8);
  c.fitness = s.doubleAt(9);
  c.registers = s.intAt(10);
  return c;
}

void bindMeasured(Statement& s, int first, const Candidate& c) {
  s.bind(first + 0, json(c.descriptor).dump());
  s.bind(first + 1, toString(c.status));
  s.bind(first + 2, c.statusDetail);
  if (c.compile)
    s.bind(first + 3, toJson(*c.compile).dump());
  else
    s.bind(first + 3, nullptr);
  s.bind(first + 4, toJson(c.validation).dump());
  if (c.timing)
    s.bind(first + 5, toJson(*c.timing).dump());
  else
    s.bind(first + 5, nullptr);
  s.bind(first + 6, profileToJson(c.profile).dump());
  s.bind(first + 7, c.fitness);
  s.bind(first + 8, c.timing ? c.timing->medianUs : 0.0);
  s.bind(first + 9, c.timing ? c.timing->speedup : 0.0);
  s.bind(first + 10, c.compile ? c.compile->registers : 0);
}

}  // namespace crucible::store_detail
