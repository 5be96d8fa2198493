// SPDX-License-Identifier: GPL-3.0-or-later
// `crucible-cli kb import` on a file from another project (or from anyone):
// the file is refused with a KnowledgeExchangeError, or its claims go where an
// import sends them and every reader of knowledge takes them: the project
// file, the knowledge browser's search, a run's scope ranking and priors, and
// the engine's book when the run's first observation of that decision arrives.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include "core/io/utf8_text.h"
#include "core/knowledge/choice_priors.h"
#include "core/knowledge/claim_scope.h"
#include "core/knowledge/knowledge_exchange.h"
#include "core/knowledge/knowledge_statistics.h"
#include "core/store/project_store.h"
#include "tests/fuzz/fuzz_entries.h"
#include "tests/fuzz/scratch_folder.h"

namespace crucible::fuzz {
namespace {

// Writing a project costs a few milliseconds an input; files with more claims
// than this are checked without the store (the parser bounds them anyway).
constexpr std::size_t kMaxClaimsStored = 64;

void check(bool holds, const std::string& property) {
  if (!holds) throw FuzzPropertyError("knowledge_import: " + property);
}

bool sameClaim(const KnowledgeEntry& a, const KnowledgeEntry& b) {
  return a.scopeArch == b.scopeArch && a.scopeFamily == b.scopeFamily && a.scopeShape == b.scopeShape &&
         a.decision == b.decision && a.claim == b.claim && a.effect == b.effect &&
         a.observations == b.observations && a.status == b.status && a.probe == b.probe && a.pinned == b.pinned &&
         a.disabled == b.disabled && a.userClaim == b.userClaim;
}

// What a run reads: the claims in its scope, weighted, as priors on its choices.
void useInScope(const std::vector<const KnowledgeEntry*>& entries, const ClaimScope& scope) {
  const std::vector<RankedClaim> ranked = rankClaims(entries, scope);
  for (const RankedClaim& r : ranked) check(r.weight > 0 && r.weight <= 1, "a ranked claim's weight is outside (0, 1]");
  const ChoicePriorRules rules;
  const ChoicePriors priors = ChoicePriors::fromContext(weightedOf(ranked), factsOf(ranked));
  for (const KnowledgeEntry* k : entries) {
    std::string dimension = k->decision, value = k->decision;
    if (const auto change = parseDecisionChange(k->decision)) {
      dimension = change->dimension;
      value = change->to;
      check(priors.factor(dimension, change->from) > 0, "a prior factor is not positive");
    }
    const double factor = priors.factor(dimension, value);
    check(factor >= rules.minFactor * (1 - 1e-12) && factor <= rules.maxBoost * (1 + 1e-12),
          "a prior factor is outside [minFactor, maxBoost]: " + std::to_string(factor));
    priors.factor(normalisedDimension(dimension), std::int64_t{16});
  }
}

// The run that follows an import: the engine's book loads the project's claims,
// and an observation of an imported decision rebuilds that claim from its
// evidence, which an import never carries.
void observeImported(const std::vector<KnowledgeEntry>& stored) {
  KnowledgeBook book(KnowledgeRules{}, [](const KnowledgeEntry&, CandidateId) { return std::nullopt; });
  book.load(stored);
  for (const KnowledgeEntry& k : stored) {
    const auto change = parseDecisionChange(k.decision);
    if (!change) continue;
    KnowledgeObservation o;
    o.arch = k.scopeArch;
    o.family = k.scopeFamily;
    o.shape = k.scopeShape;
    o.change = *change;
    o.effect = 1.07;
    o.child = 1;
    const KnowledgeEntry& after = book.observe(o);
    check(after.observations >= 1, "an observed claim has no observation");
  }
  book.inScope(ClaimScope{stored.front().scopeArch, stored.front().scopeFamily, stored.front().scopeShape});
}

void importIntoProject(const KnowledgeExchange& exchange) {
  const std::filesystem::path path = fuzzScratchFolder() / "import.crucible";
  removeProjectFiles(path);
  std::vector<KnowledgeEntry> stored;
  {
    const auto store = ProjectStore::create(path.string());
    const KnowledgeImportPlan plan = planKnowledgeImport(store->knowledge(), exchange.entries);
    check(plan.add.size() == exchange.entries.size(), "an empty project already knows an imported claim");
    store->transaction([&] {
      for (const KnowledgeEntry& k : plan.add) store->addKnowledge(k);
    });
    stored = store->knowledge();
    // The knowledge browser's search, with the file's own words as the query.
    for (const KnowledgeEntry& k : stored) store->searchKnowledge(utf8Prefix(k.claim, 200));
    // A second import of the same file adds nothing.
    const KnowledgeImportPlan again = planKnowledgeImport(stored, exchange.entries);
    check(again.add.empty() && again.alreadyKnown.size() == exchange.entries.size(),
          "importing the same file twice adds claims");
  }
  removeProjectFiles(path);
  check(stored.size() == exchange.entries.size(), "the project holds another number of claims than were imported");
  for (const KnowledgeEntry& in : exchange.entries) {
    bool found = false;
    for (const KnowledgeEntry& out : stored) found = found || sameClaim(in, out);
    check(found, "a claim reads back from the project changed (decision '" + in.decision + "')");
  }
  if (!stored.empty()) observeImported(stored);
}

}  // namespace

void knowledgeImportEntry(const std::uint8_t* data, std::size_t size) {
  KnowledgeExchange exchange;
  try {
    exchange = parseKnowledgeExchange(std::string(reinterpret_cast<const char*>(data), size));
  } catch (const KnowledgeExchangeError& e) {
    if (std::getenv("CRUCIBLE_FUZZ_VERBOSE")) std::fprintf(stderr, "knowledge_import: refused: %s\n", e.what());
    return;
  }
  // What `kb export` writes reads back as the same claims.
  const std::string written = knowledgeExchangeJson(exchange);
  KnowledgeExchange back;
  try {
    back = parseKnowledgeExchange(written);
  } catch (const KnowledgeExchangeError& e) {
    throw FuzzPropertyError(std::string("knowledge_import: an exported file does not read back: ") + e.what());
  }
  check(knowledgeExchangeJson(back) == written, "export(import(export(x))) differs from export(x)");

  std::vector<const KnowledgeEntry*> entries;
  for (const KnowledgeEntry& k : exchange.entries) {
    describeClaim(k);
    effectiveStatus(k);
    shapeClassDistance(k.scopeShape, "M~2^11 N~2^11 K~2^11");
    entries.push_back(&k);
  }
  useInScope(entries, ClaimScope{"sm_90", "matmul", "M~2^11 N~2^11 K~2^11"});
  if (!exchange.entries.empty()) {
    const KnowledgeEntry& first = exchange.entries.front();
    useInScope(entries, ClaimScope{first.scopeArch, first.scopeFamily, first.scopeShape});
  }
  if (exchange.entries.size() <= kMaxClaimsStored) importIntoProject(exchange);
  if (std::getenv("CRUCIBLE_FUZZ_VERBOSE"))
    std::fprintf(stderr, "knowledge_import: %zu claim(s) imported and used\n", exchange.entries.size());
}

}  // namespace crucible::fuzz
