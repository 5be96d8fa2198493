// SPDX-License-Identifier: GPL-3.0-or-later
// The fuzz targets' entry functions, shared by the libFuzzer executables
// (libfuzzer_main.cpp, clang with CRUCIBLE_FUZZ=ON) and the corpus replay
// test (corpus_replay_test.cpp, every build). Each takes one input's bytes,
// refuses bad input the way the product does (a caught TaskSpecError,
// ExpressionError or StoreError), and lets anything else escape: an
// unexpected exception, like a crash or a hang, is a finding. A broken
// property (a spec whose toJson does not parse again) throws
// FuzzPropertyError.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>
#include "core/task/task_spec.h"

namespace crucible::fuzz {

class FuzzPropertyError : public std::logic_error {
public:
  using std::logic_error::logic_error;
};

using FuzzEntry = void (*)(const std::uint8_t* data, std::size_t size);

// The spec the bytes state, or nullopt when parseTaskSpec refuses them (the
// refusal the product makes: not a finding).
std::optional<TaskSpec> parsedSpec(const std::uint8_t* data, std::size_t size);

// parseTaskSpec on the bytes; a spec that parses is used as the CLI and the
// roofline use it, and must survive toJson -> parseTaskSpec unchanged.
void taskSpecEntry(const std::uint8_t* data, std::size_t size);
// evaluateAxisExpression on the bytes over a few axes.
void expressionEntry(const std::uint8_t* data, std::size_t size);
// sourceHasSignature and tensorMapProblems: the bytes are a kernel source,
// or "<spec JSON>\n====\n<kernel source>" to fuzz the spec side too.
void kernelAbiEntry(const std::uint8_t* data, std::size_t size);
// ProjectStore::open(ReadOnly) on the bytes written to a temporary file,
// then every read a reviewer's session makes.
void projectOpenEntry(const std::uint8_t* data, std::size_t size);
// parseKnowledgeExchange on the bytes (`kb import`); a file that parses exports
// and reads back unchanged, imports into a new project whole and exactly, adds
// nothing the second time, and is read by the search, a run's scope ranking
// and priors (factors within their bounds), and the engine's knowledge book.
void knowledgeImportEntry(const std::uint8_t* data, std::size_t size);

// The template proposer on a task spec that parses (the `operator` field
// above all): seeds and children are legal for the task (genome, kernel
// signature, a launch inside CUDA's limits), or refused with a reason.
// Links the proposers (crucible_fuzz_proposer_entries).
void operatorTaskEntry(const std::uint8_t* data, std::size_t size);
// The tunable-kernel proposer on "<tune JSON>[\n====\n<kernel source>[\n====\n<spec
// JSON>]]": a tune document that parses survives tuneSpecToJson, and the
// starting point and its children are legal points with launches inside CUDA's
// limits, or refused with a reason. Links the proposers.
void tunableKernelEntry(const std::uint8_t* data, std::size_t size);
// A language model's reply: the first byte says whether the rest is an
// OpenAI-compatible or Anthropic response body (read by the clients) or the
// reply's text, with or without a parent kernel to edit, cut at the token
// limit or not. The text goes through the architecture-plan and kernel-reply
// parsers for a task of no template family: an accepted kernel has the
// task's signature and a launch rule the worker can take, a refused one a
// reason. Links the language-model proposer.
void modelReplyEntry(const std::uint8_t* data, std::size_t size);

// The worker's reading of a kernel binary (cubin_globals.h): its module
// variables, writable and addressable, and its calls into the device heap.
// The worker takes cubins from the engine and from job folders on a shared
// file system (Slurm), which anyone with access can change; a damaged image
// is refused with a CubinFormatError, in time bounded by its size.
void cubinImageEntry(const std::uint8_t* data, std::size_t size);

struct NamedFuzzEntry {
  const char* name;  // the target's name: tests/fuzz/corpus/<name>/ holds its seeds
  FuzzEntry entry;
};
// The targets over crucible_core alone (the CI replays their corpus under
// ASan: packaging/asan-corpus.sh), and those that also link the proposers.
const std::vector<NamedFuzzEntry>& fuzzEntries();
const std::vector<NamedFuzzEntry>& proposerFuzzEntries();
// Either kind, by name; nullptr when unknown. Only in executables that link
// crucible_fuzz_proposer_entries.
FuzzEntry findFuzzEntry(const std::string& name);

}  // namespace crucible::fuzz
