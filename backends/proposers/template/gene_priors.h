// SPDX-License-Identifier: GPL-3.0-or-later
// The template proposer's operators with knowledge as priors (issue 19): the
// claims in a run's scope (core/knowledge/choice_priors.h) weight the choice
// of a gene value in a gene mutation, of an architecture and its parameters
// in an exploration, and of a parameter step in a parameter mutation.
// Refuted claims lower a choice; the bounds of ChoicePriors keep every legal
// choice possible.
//
// Each returns nullopt, having drawn nothing from rng, when no claim speaks
// about the choices it has: the caller then uses the unweighted operator of
// genome_ops.h, so a run with no knowledge proposes exactly what it did.
#pragma once
#include <optional>
#include <string>
#include <vector>
#include "backends/proposers/template/genome_ops.h"
#include "core/knowledge/choice_priors.h"

namespace crucible::templates {

// Like mutateGene: one gene (`focus` if it can change) to another value; the
// gene is drawn in proportion to its most favoured value's factor, then the
// value in proportion to its factor.
std::optional<GeneMutation> mutateGeneWithPriors(const Genome& g, const KernelProblem& p, Rng& rng,
                                                 const std::string& focus, const ChoicePriors& priors);

// Like newArchitecture: an architecture none of `known` has, drawn in
// proportion to the product of its genes' factors, then its parameters in
// proportion to theirs.
std::optional<Genome> newArchitectureWithPriors(const std::vector<Genome>& known, const KernelProblem& p, Rng& rng,
                                                const ChoicePriors& priors);

// Like mutateParams: kParamDraws unweighted mutations, one of them kept in
// proportion to the factors of the values it changed to.
inline constexpr int kParamDraws = 4;
std::optional<ParamMutation> mutateParamsWithPriors(const Genome& g, const KernelProblem& p, Rng& rng, int count,
                                                    const ChoicePriors& priors);

}  // namespace crucible::templates
