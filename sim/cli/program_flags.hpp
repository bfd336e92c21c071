// Program flags shared by cosim, run and bench: which program runs (the generated MoE layer of a
// model preset, or --program FILE) on which machine preset, and the progress line of long runs.
// Internal to the moesim executable.
#pragma once

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "command.hpp"
#include "moesim/isa/program.hpp"
#include "moesim/isa/spec.hpp"
#include "moesim/workload/builder.hpp"
#include "moesim/workload/presets.hpp"
#include "moesim/workload/route_trace.hpp"
#include "progress.hpp"

namespace moesim::cli {

/// Shape of the generated layer when cosim / run are given no --hidden / --intermediate.
constexpr unsigned kDefaultHidden = 128;
constexpr unsigned kDefaultIntermediate = 128;

/// How an assembly program is read: --syntax and --stage-map, of `moesim asm` and --program.
struct AsmFlags {
  std::string syntax = "moesim";  ///< isa::Syntax
  std::string stage_map;          ///< a stage map file (isa/stage_map.hpp); empty: none
};

struct ProgramFlags {
  std::string model = "gpt-oss-20b";
  std::string machine = "default";
  unsigned tokens = 4;
  unsigned hidden = 0;        ///< 0: the model's
  unsigned intermediate = 0;  ///< 0: the model's
  bool shared = false;
  unsigned shared_intermediate = 0;
  std::string topk_policy = "auto";
  std::string lowering = "pair";
  uint64_t seed = 1;
  uint64_t max_instructions = 2000000;
  ProgressFlags progress;  ///< --progress, --progress-after, --progress-every
  std::string asm_out;
  std::string plant_fault;
  std::string program_file;
  AsmFlags assembly;         ///< --syntax and --stage-map of --program
  uint64_t random_seed = 0;  ///< --random-seed: a constrained-random program (docs/random.md)
  std::string random_mix;    ///< --mix of --random-seed
  CLI::Option* random_seed_opt = nullptr;
  std::vector<std::string> images;      ///< --image FILE.yaml (docs/images.md)
  std::vector<std::string> image_bins;  ///< --image-bin SPACE=FILE[@OFFSET]
  uint64_t random_image = 0;            ///< --random-image SEED
  CLI::Option* random_image_opt = nullptr;
  CLI::Option* hidden_opt = nullptr;
  CLI::Option* intermediate_opt = nullptr;
  std::string route_trace;  ///< --route-trace FILE (docs/route_traces.md)
  unsigned tokens_from = 0;
  unsigned tokens_to = 0;  ///< with tokens_to_opt unset: the end of the trace
  CLI::Option* tokens_opt = nullptr;
  CLI::Option* tokens_to_opt = nullptr;
  std::string dma_queue;   ///< --dma-queue N: DMA_QUEUE of the run ("": the preset's)
  std::string hbm_jitter;  ///< --hbm-jitter SEED: HBM_JITTER_SEED of the run ("": the preset's)
  std::string checkpoint;  ///< --checkpoint DIR: a Hugging Face checkpoint (docs/checkpoints-hf.md)
  unsigned layer = 0;      ///< --layer N of --checkpoint
  std::string inputs;      ///< --inputs FILE: the layer's input hidden states (safetensors)
};

void add_progress_flag(CLI::App* app, ProgramFlags& f);
void add_program_flags(CLI::App* app, ProgramFlags& f);
/// --dma-queue N, of run, cosim and bench.
void add_dma_queue_flag(CLI::App* app, ProgramFlags& f);

/// `base` with DMA_QUEUE = `dma_queue` (docs/overlap.md section 9), or `base` itself when
/// `dma_queue` is empty. The copy keeps the preset's name (the RTL runs it on the model Verilated
/// for that preset: DMA_QUEUE is a run-time parameter) and lives as long as the process (an engine
/// keeps a reference to its preset). Throws UsageError naming --dma-queue unless `dma_queue` is
/// a number from 0 to machine.yaml's largest DMA_QUEUE (runtime bits).
const isa::MachinePreset& with_dma_queue(const isa::Spec& spec, const isa::MachinePreset& base,
                                         const std::string& dma_queue);

/// --hbm-jitter SEED, of run, cosim and bench.
void add_hbm_jitter_flag(CLI::App* app, ProgramFlags& f);

/// `base` with HBM_JITTER_SEED = `seed` (isa.yaml `hbm_jitter`), or `base` itself when `seed` is
/// empty; a copy as with_dma_queue makes. Throws UsageError naming --hbm-jitter unless `seed` is
/// a number from 0 to machine.yaml's largest HBM_JITTER_SEED (runtime bits).
const isa::MachinePreset& with_hbm_jitter(const isa::Spec& spec, const isa::MachinePreset& base,
                                          const std::string& seed);

/// The machine preset of a run of `f`: --machine with --dma-queue and --hbm-jitter applied
/// (with_dma_queue, with_hbm_jitter).
const isa::MachinePreset& run_preset(const isa::Spec& spec, const ProgramFlags& f);

/// The program to run, its initial memories and the spec objects it was built for. `built`
/// (and `model`) are set for the generated MoE layer, not for --program.
struct Workload {
  const isa::MachinePreset* preset = nullptr;
  std::optional<workload::ModelPreset> model;
  std::vector<std::string> ignored_config_keys;  ///< config.json keys accepted without effect
  std::optional<workload::BuiltProgram> built;
  /// --route-trace: the trace and the tokens [trace_from, trace_to) the layer replays.
  std::optional<workload::RouteTrace> trace;
  unsigned trace_from = 0, trace_to = 0;
  std::string trace_note;  ///< the note the built layer carries (workload::RouteReplay::note)
  isa::Program program;
  /// --program: the initial memories (--random-image, then --image, then --image-bin; the rest
  /// zero).
  isa::MemoryImage program_image;
  std::optional<uint64_t> budget;  ///< INSTRUCTION_BUDGET of the run when not the preset's
  /// The initial memories: the built layer's image (not copied: it is 680 MB at full size) or
  /// program_image.
  const isa::MemoryImage& image() const { return built ? built->image : program_image; }
  std::string name;
  /// report::provenance_json of the run: command line, version, seed, machine, SHA-256 of the
  /// spec files, the program and the images (docs/reproducibility.md).
  nlohmann::json provenance;
};

Workload make_workload(const isa::Spec& spec, const ProgramFlags& f);
/// make_workload without the provenance (no hashing).
Workload make_workload_only(const isa::Spec& spec, const ProgramFlags& f);

/// --syntax moesim|plena (isa::Syntax) and --stage-map FILE of `moesim asm` and --program.
std::vector<CLI::Option*> add_asm_flags(CLI::App* app, AsmFlags& f);

/// A program file as `moesim asm` and `--program` read it: FILE.hex (with its .stages beside)
/// is an assembled program, any other name is assembly read as `f` says, whose warnings go to
/// stderr (with one when no instruction gets a stage in the PLENA syntax or with a stage map).
/// `what` prefixes errors.
isa::Program read_program_file(const isa::Spec& spec, const std::string& path,
                               const std::string& what, const AsmFlags& f);

/// "gpt-oss-20b T=4 H=128 I=128 E=32 k=4 seed=1 machine=default" or "FILE machine=default".
std::string describe(const Workload& w, const ProgramFlags& f);

/// The builder's matrix-unit utilisation per part (routed, shared).
/// `stopped_after`: the run ended early (divergence, limit) after this many retired instructions.
void print_utilisation(std::ostream& os, const Workload& w,
                       std::optional<uint64_t> stopped_after = std::nullopt);

nlohmann::json context_json(const isa::Spec& spec, const ProgramFlags& f, const Workload& w);

/// The one error line of a run stopped by --max-instructions; returns the exit code.
int limit_error(const ProgramFlags& f);

}  // namespace moesim::cli
