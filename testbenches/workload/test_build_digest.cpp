// The program builder's output is pinned: program (words, stages, lines, work tags, text) and
// memory image of a set of layers hash to digests computed from the unchanged builder at main
// 6df0e6d (before the threaded image generator), so a faster builder cannot change
// any seeded content. To print the digests of the current builder, run this case with
// MOESIM_PRINT_BUILD_DIGESTS=1.
#include <boost/test/unit_test.hpp>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "moesim/isa/spec.hpp"
#include "moesim/isa/trace.hpp"
#include "moesim/workload/builder.hpp"
#include "moesim/workload/presets.hpp"
#include "moesim/workload/program_fault.hpp"

using namespace moesim;

namespace {

struct Case {
  const char* label;
  const char* model;
  const char* machine;
  unsigned tokens, hidden, intermediate;
  bool shared;
  workload::TopkEncoding topk;
  workload::Lowering lowering;
  uint64_t seed;
  uint64_t program_digest, image_digest;  ///< at main 6df0e6d
};

uint64_t mix(uint64_t h, const void* p, size_t n) {
  return isa::fnv1a64(static_cast<const uint8_t*>(p), n, h);
}
uint64_t mix_u64(uint64_t h, uint64_t v) { return mix(h, &v, sizeof v); }

uint64_t program_digest(const workload::BuiltProgram& b) {
  uint64_t h = isa::fnv1a64(nullptr, 0);
  h = mix_u64(h, b.program.words.size());
  h = mix(h, b.program.words.data(), b.program.words.size() * sizeof(uint32_t));
  h = mix(h, b.program.stages.data(), b.program.stages.size());
  h = mix(h, b.program.lines.data(), b.program.lines.size() * sizeof(uint32_t));
  for (const auto& t : b.program.work) {
    h = mix_u64(h, static_cast<uint64_t>(static_cast<int64_t>(t.token)));
    h = mix_u64(h, static_cast<uint64_t>(static_cast<int64_t>(t.slot)));
    h = mix_u64(h, static_cast<uint64_t>(static_cast<int64_t>(t.expert)));
    h = mix_u64(h, static_cast<uint64_t>(t.expert_at));
  }
  h = mix(h, b.asm_text.data(), b.asm_text.size());
  return mix(h, b.name.data(), b.name.size());
}

uint64_t image_digest(const isa::MemoryImage& img) {
  uint64_t h = isa::fnv1a64(nullptr, 0);
  for (const auto* space : {&img.vram, &img.mram, &img.fp_sram, &img.int_sram, &img.hbm}) {
    h = mix_u64(h, space->size());
    for (const auto& seg : *space) {
      h = mix_u64(h, seg.base);
      h = mix_u64(h, seg.bytes.size());
      h = mix(h, seg.bytes.data(), seg.bytes.size());
    }
  }
  return h;
}

/// `p` with DMA_QUEUE 0 (its name kept, the program text names it): the digests are of the serial
/// schedule, built before the DMA queue (the builder double-buffers for a queue:
/// docs/workloads.md; `serial` is that machine under another name).
isa::MachinePreset serially(isa::MachinePreset p) {
  p.params.at("DMA_QUEUE") = 0;
  return p;
}

/// The build options of a Case or FaultCase.
template <class C>
workload::BuildOptions options_of(const C& c) {
  workload::BuildOptions o;
  o.model = &workload::find_model(c.model);
  o.tokens = c.tokens;
  o.hidden = c.hidden;
  o.intermediate = c.intermediate;
  o.shared = c.shared;
  o.topk = c.topk;
  o.lowering = c.lowering;
  o.seed = c.seed;
  return o;
}

using workload::Lowering;
using workload::TopkEncoding;
constexpr auto kAuto = TopkEncoding::automatic;
constexpr auto kReg = TopkEncoding::register_policy;
constexpr auto kPair = Lowering::pair;
constexpr auto kExpert = Lowering::expert;

// clang-format off
const Case kCases[] = {
    {"gpt-oss-20b demo", "gpt-oss-20b", "default", 4, 128, 128, false, kAuto, kPair, 1, 0xd3892ad16a55d05bull, 0xe45d9614db8ad61aull},
    {"gpt-oss-20b seed 7", "gpt-oss-20b", "default", 3, 128, 64, false, kAuto, kPair, 7, 0x480aeba6afdce10aull, 0x695e0a7420163e1aull},
    {"gpt-oss-20b topk register", "gpt-oss-20b", "default", 4, 128, 128, false, kReg, kPair, 1, 0x1f07ea94121c37feull, 0xe45d9614db8ad61aull},
    {"gpt-oss-20b expert-major", "gpt-oss-20b", "default", 4, 128, 128, false, kAuto, kExpert, 1, 0xe8b7315d196fcefcull, 0x583462cdefab7efbull},
    {"gpt-oss-120b", "gpt-oss-120b", "default", 2, 128, 128, false, kAuto, kPair, 1, 0x8e11e2dd5da57f30ull, 0x1754170e609fe450ull},
    {"qwen3-30b-a3b", "qwen3-30b-a3b", "default", 4, 128, 128, false, kAuto, kPair, 1, 0xef8875a478cd5af3ull, 0x493878fbf8cfcfcbull},
    {"qwen3-30b-a3b bench H512", "qwen3-30b-a3b", "bench", 2, 512, 512, false, kAuto, kPair, 3, 0xfe7631570693a9cbull, 0x5060b7b190979973ull},
    {"qwen1.5-moe shared", "qwen1.5-moe-a2.7b", "default", 4, 128, 128, true, kAuto, kPair, 1, 0x9c1a5b527f1a0f63ull, 0x42d61fb3bb91ea1dull},
    {"deepseek-v2-lite shared", "deepseek-v2-lite", "default", 4, 128, 128, true, kAuto, kPair, 1, 0x7b733bc58c358d85ull, 0xc9fb00a1b5ee53dull},
    {"deepseek-v3 shared", "deepseek-v3", "default", 4, 128, 128, true, kAuto, kPair, 1, 0x5b6dfd67ecb9cb1eull, 0x2f49474f55b69b37ull},
    {"mixtral-8x7b", "mixtral-8x7b", "default", 4, 128, 128, false, kAuto, kPair, 1, 0x5533fd4b5672d53ull, 0x5a10eb9cfab754f4ull},
    {"llama4-scout shared", "llama-4-scout", "default", 4, 128, 128, true, kAuto, kPair, 1, 0xa71b91248795fd72ull, 0x419f59626ba2643ull},
};
// clang-format on

}  // namespace

BOOST_AUTO_TEST_CASE(builder_output_matches_digests_of_main_6df0e6d) {
  const auto& spec = isa::Spec::builtin();
  const bool print = std::getenv("MOESIM_PRINT_BUILD_DIGESTS") != nullptr;
  for (const Case& c : kCases) {
    const auto b = workload::build_moe_layer(spec, serially(spec.preset(c.machine)), options_of(c));
    const uint64_t pd = program_digest(b), id = image_digest(b.image);
    if (print)
      std::cout << std::hex << "    {\"" << c.label << "\", ... 0x" << pd << "ull, 0x" << id
                << "ull},\n"
                << std::dec;
    BOOST_TEST(pd == c.program_digest, c.label << ": program digest 0x" << std::hex << pd);
    BOOST_TEST(id == c.image_digest, c.label << ": image digest 0x" << std::hex << id);
  }
}

namespace {

struct FaultCase {
  const char* fault;  ///< --plant-fault name
  const char* model;
  unsigned tokens, hidden, intermediate;
  bool shared;
  workload::TopkEncoding topk;
  workload::Lowering lowering;
  uint64_t seed;
  uint64_t program_digest;  ///< at main ad7d919 (score-scales-output planted while lowering)
};

// clang-format off
const FaultCase kFaultCases[] = {
    {"topk-shift-7", "gpt-oss-20b", 4, 128, 128, false, kReg, kPair, 1, 0x8bb61e058f77083dull},
    {"no-stage-markers", "gpt-oss-20b", 4, 128, 128, false, kAuto, kPair, 1, 0x3082d4e71b8d8b0eull},
    {"shared-gate-dropped", "qwen1.5-moe-a2.7b", 4, 128, 128, true, kAuto, kPair, 1, 0x7790d46890f70fc3ull},
    {"shared-as-routed", "qwen1.5-moe-a2.7b", 4, 128, 128, true, kAuto, kExpert, 1, 0xbb62f0c809ca02e3ull},
    {"correction-bias-dropped", "deepseek-v3", 4, 64, 64, false, kAuto, kPair, 5, 0xf099a06a2d7135dbull},
    {"group-mask-dropped", "deepseek-v3", 4, 64, 64, false, kAuto, kPair, 5, 0x4fd7f6acd9be43b3ull},
    {"weights-from-biased-scores", "deepseek-v3", 4, 64, 64, false, kAuto, kExpert, 5, 0x57c4f9d0eb703a09ull},
    {"score-scales-output", "llama-4-scout", 4, 64, 64, false, kAuto, kPair, 5, 0x9542e04be01b9c49ull},
    {"score-scales-output", "llama-4-scout", 4, 64, 64, false, kAuto, kExpert, 5, 0x316834d8c6ba87b0ull},
    {"score-scales-output", "llama-4-scout", 5, 128, 128, true, kAuto, kPair, 2, 0x4643ffb5aa50ae16ull},
    {"score-scales-output", "llama-4-scout", 5, 128, 128, true, kAuto, kExpert, 2, 0xdc05b46cd569198full},
};
// clang-format on

}  // namespace

BOOST_AUTO_TEST_CASE(planted_faults_match_digests_of_main_ad7d919) {
  // Each planted fault, now a rewrite applied after the build, yields the program the builder
  // planted before the split (main ad7d919), where score-scales-output was planted while
  // lowering: the same words, stages, lines, work tags and text.
  const auto& spec = isa::Spec::builtin();
  const auto machine = serially(spec.preset("default"));
  const bool print = std::getenv("MOESIM_PRINT_BUILD_DIGESTS") != nullptr;
  for (const FaultCase& c : kFaultCases) {
    auto b = workload::build_moe_layer(spec, machine, options_of(c));
    const uint64_t clean = program_digest(b);
    workload::plant_program_fault(spec, machine, workload::parse_program_fault(c.fault), b);
    const uint64_t pd = program_digest(b);
    if (print)
      std::cout << std::hex << "    {\"" << c.fault << "\", ... 0x" << pd << "ull},\n" << std::dec;
    BOOST_TEST(pd != clean, c.fault << " " << c.model << ": the rewrite changed nothing");
    BOOST_TEST(pd == c.program_digest, c.fault << " " << c.model << " lowering "
                                               << static_cast<int>(c.lowering)
                                               << ": program digest 0x" << std::hex << pd);
  }
}
