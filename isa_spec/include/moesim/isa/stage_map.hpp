// Stage maps: the stages of a program without `; @stage=` markers, from its comments
// (docs/images.md, Stage maps). A rule names a stage by substrings of a comment, as PLENA's
// emulator bills the instructions of its compiler's programs (docs/sources.md, Timing and the
// stage profile); the assembler tries the rules on each comment (AsmOptions::stage_map).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "moesim/isa/spec.hpp"

namespace moesim::isa {

/// One rule: it matches a comment (compared lower-cased) that holds one of `any` (when given),
/// every one of `all` and none of `none`, when the current stage is `after` (when given).
struct StageRule {
  uint8_t stage = 0;  ///< stages.yaml code of the stage it sets
  std::vector<std::string> any, all, none;
  bool has_after = false;
  uint8_t after = 0;
};

struct StageMap {
  std::string source;  ///< the file it was read from
  std::vector<StageRule> rules;
  /// The stage the first rule matching `comment` sets, or `current` when none matches.
  uint8_t classify(std::string_view comment, uint8_t current) const;
};

/// Reads a stage map file: `rules:`, a list of {stage, any, all, none, after} (stage and after
/// name stages.yaml stages other than `other`; any, all, none are lists of strings; a rule has
/// any or all). Every error is a UsageError "FILE:LINE: key: message".
StageMap read_stage_map(const Spec& spec, const std::string& path);

}  // namespace moesim::isa
