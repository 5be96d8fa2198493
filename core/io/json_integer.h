// SPDX-License-Identifier: GPL-3.0-or-later
// A JSON integer read without losing bits: nlohmann's get<int>() keeps the low
// 32 bits of 4294967297, and get<std::int64_t>() reads 18446744073709551615 (a
// JSON unsigned) as -1. Every reader of an integer from outside checks the
// range through this.
#pragma once
#include <cstdint>
#include <optional>
#include <nlohmann/json_fwd.hpp>

namespace crucible {

// The value when `j` is a JSON integer in [low, high]; nullopt for another type
// (a float, a boolean, a string) or a value outside.
std::optional<std::int64_t> jsonIntegerIn(const nlohmann::json& j, std::int64_t low, std::int64_t high);

}  // namespace crucible
