// The random program of one seed for cosim / run --random-seed (cmd_random.cpp, docs/random.md).
// Internal to the moesim executable.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "moesim/isa/program.hpp"
#include "moesim/isa/spec.hpp"

namespace moesim::cli {

/// Generates the program of `seed` (with the mix file `mix_file`, empty = defaults): its words,
/// initial memories, INSTRUCTION_BUDGET when not the preset's, and a name for reports.
void random_workload(const isa::Spec& spec, const isa::MachinePreset& preset, uint64_t seed,
                     const std::string& mix_file, isa::Program& program, isa::MemoryImage& image,
                     std::optional<uint64_t>& budget, std::string& name);

}  // namespace moesim::cli
