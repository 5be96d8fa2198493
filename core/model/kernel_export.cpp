// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/kernel_export.h"
#include "core/model/model_json.h"

namespace crucible {

nlohmann::json exportedKernelJson(const std::string& task, const std::string& family, const std::string& specJson,
                                  const Candidate& c) {
  nlohmann::json launch = toJson(c.launch);
  // A kernel that takes tensor maps cannot be launched without them: a reader never has to guess.
  if (!launch.contains("tensorMaps")) launch["tensorMaps"] = nlohmann::json::array();
  return {{"task", task},
          {"family", family},
          {"spec", nlohmann::json::parse(specJson)},
          {"entry", c.launch.entry},
          {"grid", launch["grid"]},
          {"block", launch["block"]},
          {"smem", c.launch.dynamicSmemBytes},
          {"launch", launch},
          {"architecture", c.architectureKey}};
}

}  // namespace crucible
