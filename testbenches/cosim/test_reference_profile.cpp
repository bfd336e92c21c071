// MoE workloads end to end: the stage profile (golden = RTL, every stage of stages.yaml in exactly
// one group, HBM bytes per stage as the layout predicts them), the independent reference (equal
// to the golden output bit for bit; close to float64), and the planted lowering bugs that only
// those two can catch (both engines run the faulty program alike).
#include <boost/test/unit_test.hpp>
#include <map>
#include <optional>
#include <set>

#include "moesim/cosim/cosim.hpp"
#include "moesim/cosim/engines.hpp"
#include "moesim/cosim/fault.hpp"
#include "moesim/isa/engine.hpp"
#include "moesim/isa/numerics.hpp"
#include "moesim/report/profile.hpp"
#include "moesim/workload/builder.hpp"
#include "moesim/workload/program_fault.hpp"
#include "moesim/workload/reference.hpp"

using namespace moesim;

namespace {

const isa::Spec& spec() { return isa::Spec::builtin(); }
const isa::MachinePreset& machine() { return spec().preset("default"); }

workload::BuiltProgram build(const std::string& model, unsigned tokens, unsigned hidden,
                             unsigned intermediate, uint64_t seed, bool shared = false,
                             workload::Lowering lowering = workload::Lowering::pair,
                             std::optional<workload::ProgramFault> fault = std::nullopt) {
  workload::BuildOptions o;
  o.model = &workload::find_model(model);
  o.tokens = tokens;
  o.hidden = hidden;
  o.intermediate = intermediate;
  o.seed = seed;
  o.shared = shared;
  o.lowering = lowering;
  workload::BuiltProgram b = workload::build_moe_layer(spec(), machine(), o);
  if (fault) workload::plant_program_fault(spec(), machine(), *fault, b);
  return b;
}

/// The process's golden model (SystemC allows one elaboration per process).
isa::Engine& golden() {
  static std::unique_ptr<isa::Engine> g = cosim::make_golden_engine(spec(), machine());
  return *g;
}

/// Runs the golden model alone on `img` to the end (no trap allowed).
cosim::RunResult run_golden(const workload::BuiltProgram& b, const isa::MemoryImage& img) {
  golden().load(b.program, img);
  const cosim::RunResult r = cosim::run_single(spec(), golden(), {});
  BOOST_REQUIRE(!r.trap.has_value());
  return r;
}

/// Bytes of an R x C MXFP8 matrix: codes plus one E8M0 scale per MX block.
uint64_t mx_bytes(uint64_t rows, uint64_t cols) {
  const auto mxb = static_cast<uint64_t>(machine().mx_block());
  return rows * cols + rows * cols / mxb;
}

/// HBM bytes {read, written} each stage must move, derived from the layer's shapes (not from the
/// engines): the inputs once in residual_setup; both weight matrices of an expert in
/// expert_weight_prefetch, once per pair (pair-major) or once per expert (expert-major); the
/// shared expert's two matrices in shared_expert_projection; the output once in non_moe;
/// nothing elsewhere.
std::map<std::string, std::pair<uint64_t, uint64_t>> expected_hbm(const workload::Layout& L) {
  const uint64_t T = L.tokens_padded, H = L.hidden, I = L.intermediate;
  const uint64_t IS = L.shared_intermediate;
  uint64_t inputs = 0;
  for (const workload::MxMatrix* m : {&L.x, &L.wr, &L.br, &L.b1, &L.b2, &L.wg})
    inputs += mx_bytes(m->rows, m->cols);
  const uint64_t fetches = L.lowering == workload::Lowering::pair ? L.pairs : L.experts;
  std::map<std::string, std::pair<uint64_t, uint64_t>> m;
  for (const auto& s : spec().stages()) m[s.name] = {0, 0};
  m["residual_setup"] = {inputs, 0};
  m["expert_weight_prefetch"] = {fetches * (mx_bytes(2 * I, H) + mx_bytes(H, I)), 0};
  m["shared_expert_projection"] = {mx_bytes(2 * IS, H) + mx_bytes(H, IS), 0};
  m["non_moe"] = {0, mx_bytes(T, H)};
  return m;
}

/// The ways `p` departs from expected_hbm(L); empty when it matches.
std::vector<std::string> hbm_problems(const report::StageProfile& p, const workload::Layout& L) {
  std::vector<std::string> out;
  const auto want = expected_hbm(L);
  for (const report::ProfileRow& r : p.stages) {
    const auto it = want.find(r.name);
    std::pair<uint64_t, uint64_t> w{0, 0};
    if (it != want.end()) w = it->second;
    if (r.hbm_read != w.first || r.hbm_written != w.second)
      out.push_back(r.name + ": HBM read " + std::to_string(r.hbm_read) + " written " +
                    std::to_string(r.hbm_written) + ", expected " + std::to_string(w.first) +
                    " / " + std::to_string(w.second));
  }
  return out;
}

/// Structural checks of one profile against stages.yaml (read here, not copied).
void check_vocabulary(const report::StageProfile& p, uint64_t total_cycles, uint64_t retired) {
  std::set<std::string> groups_in_spec;
  for (const auto& s : spec().stages()) {
    groups_in_spec.insert(s.group);
    size_t n = 0;
    for (const report::ProfileRow& r : p.stages)
      if (r.name == s.name) {
        ++n;
        BOOST_TEST(r.group == s.group, "stage " << s.name);
        BOOST_TEST(r.code == s.code, "stage " << s.name);
      }
    BOOST_TEST(n == 1u, "stage " << s.name << " appears " << n << " times");
  }
  BOOST_TEST(p.stages.size() == spec().stages().size());  // no unclassified code
  std::set<std::string> groups;
  report::ProfileRow sum;
  for (const report::ProfileRow& g : p.groups) {
    groups.insert(g.name);
    sum.instructions += g.instructions;
    sum.cycles += g.cycles;
    sum.hbm_read += g.hbm_read;
    sum.hbm_written += g.hbm_written;
  }
  BOOST_TEST((groups == groups_in_spec));
  BOOST_TEST(sum.instructions == p.total.instructions);
  BOOST_TEST(sum.cycles == p.total.cycles);
  BOOST_TEST(sum.hbm_read == p.total.hbm_read);
  BOOST_TEST(sum.hbm_written == p.total.hbm_written);
  BOOST_TEST(p.total.cycles == total_cycles);
  BOOST_TEST(p.total.instructions == retired);
  double fractions = 0;
  for (const report::ProfileRow& r : p.stages) fractions += r.time_fraction;
  BOOST_TEST(fractions == 1.0, boost::test_tools::tolerance(1e-12));
}

const report::ProfileRow& group(const report::StageProfile& p, const std::string& name) {
  for (const report::ProfileRow& g : p.groups)
    if (g.name == name) return g;
  throw std::logic_error("no group " + name);
}

/// Runs the golden model on `img` and compares its output with `ref` (printed to the log).
workload::ReferenceCheck golden_vs_reference(const workload::BuiltProgram& b,
                                             const workload::ReferenceResult& ref,
                                             const isa::MemoryImage& img) {
  run_golden(b, img);
  const auto c = workload::check_against_reference(
      machine(), b, ref, workload::read_layer_output(golden(), machine(), b));
  std::ostringstream s;
  workload::print_reference_check(s, "golden", c);
  BOOST_TEST_MESSAGE(s.str());
  return c;
}

}  // namespace

BOOST_AUTO_TEST_CASE(profile_golden_equals_rtl_and_hbm_bytes_follow_the_layout) {
  const auto b = build("gpt-oss-20b", 4, 128, 64, 3);
  auto rtl = cosim::make_rtl_engine(spec(), machine());
  golden().load(b.program, b.image);
  rtl->load(b.program, b.image);
  const cosim::CosimResult res = cosim::run_cosim(spec(), golden(), *rtl, {});
  BOOST_REQUIRE(res.completed);
  BOOST_TEST(res.outputs_bit_exact());
  BOOST_TEST(res.cycles_match());
  BOOST_TEST(res.profiles_match());
  const auto pg = report::make_profile(spec(), res.stages, 0, "golden");
  const auto pr = report::make_profile(spec(), res.stages, 1, "rtl");
  const auto diffs = report::profile_differences(pg, pr);
  for (const auto& d : diffs) BOOST_ERROR(d);
  for (const auto* p : {&pg, &pr}) {
    check_vocabulary(*p, res.total_cycles[0], res.retired[0]);
    for (const auto& problem : hbm_problems(*p, b.layout))
      BOOST_ERROR(p->engine << ": " << problem);
  }
  BOOST_TEST(group(pg, "routed").cycles > 0u);
  BOOST_TEST(group(pg, "plumbing").cycles > 0u);
  BOOST_TEST(group(pg, "shared").cycles == 0u);  // GPT-OSS has no shared expert
  BOOST_TEST(pg.shared_vs_routed_cycles == 0.0);
  std::ostringstream table;
  report::print_profile(table, pg);
  BOOST_TEST_MESSAGE(table.str());
  BOOST_TEST(table.str().find("reflects the routed lowering") != std::string::npos);

  // The comparison sees a difference in one engine's HBM count: a profile with one byte more.
  auto broken = res.stages;
  broken.front().hbm_read[1] += 1;
  BOOST_TEST(report::profile_differences(report::make_profile(spec(), broken, 0, "golden"),
                                         report::make_profile(spec(), broken, 1, "rtl"))
                 .size() == 1u);
}

BOOST_AUTO_TEST_CASE(profile_catches_missing_stage_markers) {
  const auto b = build("gpt-oss-20b", 4, 64, 64, 3, false, workload::Lowering::pair,
                       workload::ProgramFault::no_stage_markers);
  const cosim::RunResult r = run_golden(b, b.image);
  const auto p = report::make_profile(spec(), r.stages, 0, "golden");
  const auto problems = hbm_problems(p, b.layout);
  BOOST_TEST(!problems.empty());
  for (const auto& s : problems) BOOST_TEST_MESSAGE(s);
  BOOST_TEST(group(p, "routed").cycles == 0u);
}

BOOST_AUTO_TEST_CASE(reference_equals_golden_bit_for_bit_gpt_oss_20b) {
  const auto b = build("gpt-oss-20b", 5, 128, 64, 7);
  const auto ref = workload::reference_layer(machine(), workload::find_model("gpt-oss-20b"), b);
  const auto c = golden_vs_reference(b, ref, b.image);
  isa::Engine* g = &golden();
  BOOST_TEST(c.bit_exact());
  BOOST_TEST(c.acc_elements == 5u * 128u);
  // V_TOPK's ids and weights are the reference's too.
  const auto& L = b.layout;
  const auto ids = g->read(isa::Space::IntSram, L.int_ids, L.pairs);
  const auto w = g->read(isa::Space::FpSram, L.fp_weights, L.pairs);
  for (unsigned p = 0; p < L.pairs; ++p) {
    BOOST_TEST(ids[4 * p] == ref.expert_ids[p]);
    BOOST_TEST((w[2 * p] | (w[2 * p + 1] << 8)) == ref.route_weights[p]);
  }
  // The layer is non-trivial and the hardware numerics are close to float64.
  double max_exact = 0;
  for (double v : ref.exact) max_exact = std::max(max_exact, std::fabs(v));
  BOOST_TEST(max_exact > 1.0);
  // BF16 storage between steps: a few % of the output range; the MXFP8 output adds E4M3's
  // 3-bit mantissa (up to 12.5 % of an element at a saturated block maximum).
  BOOST_REQUIRE(c.errors.size() == 2u);
  BOOST_TEST(c.errors[0].max_abs < 0.05 * max_exact);
  BOOST_TEST(c.errors[1].max_abs < 0.15 * max_exact);
  for (const workload::ErrorRow& e : c.errors) BOOST_TEST(e.cosine > 0.999, e.what);
}

BOOST_AUTO_TEST_CASE(reference_equals_golden_bit_for_bit_register_policy) {
  const auto b = build("gpt-oss-120b", 4, 64, 64, 11);  // E=128, k=4: C_SET_TOPK_REG, rmask 15
  BOOST_REQUIRE(b.layout.topk_rmask == 15u);
  const auto ref = workload::reference_layer(machine(), workload::find_model("gpt-oss-120b"), b);
  const auto c = golden_vs_reference(b, ref, b.image);
  BOOST_TEST(c.bit_exact());
}

BOOST_AUTO_TEST_CASE(reference_catches_topk_packing_shift_7) {
  const auto good = build("gpt-oss-120b", 4, 64, 64, 11);
  const auto ref = workload::reference_layer(machine(), workload::find_model("gpt-oss-120b"), good);
  BOOST_TEST(golden_vs_reference(good, ref, good.image).ok());
  const auto b = build("gpt-oss-120b", 4, 64, 64, 11, false, workload::Lowering::pair,
                       workload::ProgramFault::topk_shift_7);
  BOOST_TEST(b.asm_text.find("S_ADDI_INT gp13, gp0, " + std::to_string((128 << 7) | 4)) !=
             std::string::npos);
  const auto c = golden_vs_reference(b, ref, b.image);
  BOOST_TEST(!c.bit_exact());
  BOOST_TEST(c.acc_differing > 0u);
  // On a hardwired shape the fault has nothing to change.
  BOOST_CHECK_THROW(build("gpt-oss-20b", 4, 64, 64, 11, false, workload::Lowering::pair,
                          workload::ProgramFault::topk_shift_7),
                    UsageError);
}

BOOST_AUTO_TEST_CASE(reference_catches_one_flipped_input_bit) {
  const auto b = build("gpt-oss-20b", 4, 64, 64, 5);
  const auto ref = workload::reference_layer(machine(), workload::find_model("gpt-oss-20b"), b);
  // Bit 6 (the exponent MSB) of token 0's first E4M3 input code, in the golden image only: token
  // 0's row changes, no other.
  isa::MemoryImage img = b.image;
  const uint64_t byte = b.layout.x.base;
  const uint8_t before = img.hbm[0].bytes[byte];
  cosim::apply_bit_flip(cosim::parse_bit_flip("golden:hbm:" + std::to_string(byte) + ":6"),
                        img.hbm[0].bytes.size(), img);
  BOOST_REQUIRE(img.hbm[0].bytes[byte] == (before ^ 0x40));
  const auto c = golden_vs_reference(b, ref, img);
  BOOST_TEST(!c.bit_exact());
  BOOST_REQUIRE(!c.first_differences.empty());
  BOOST_TEST(c.first_differences.front().find("accumulator token 0 ") == 0u);
  BOOST_TEST(c.acc_differing <= uint64_t{b.layout.hidden});
}

BOOST_AUTO_TEST_CASE(profile_of_shared_and_expert_major_layers_follows_the_layout) {
  for (const auto lowering : {workload::Lowering::pair, workload::Lowering::expert}) {
    const auto b = build("qwen1.5-moe-a2.7b", 3, 64, 64, 2, true, lowering);
    const cosim::RunResult r = run_golden(b, b.image);
    const auto p = report::make_profile(spec(), r.stages, 0, "golden");
    check_vocabulary(p, r.total_cycles, r.retired);
    for (const auto& problem : hbm_problems(p, b.layout)) BOOST_ERROR(problem);
    BOOST_TEST(group(p, "shared").cycles > 0u);
    BOOST_TEST(p.shared_vs_routed_cycles > 0.0);
    BOOST_TEST_MESSAGE("shared / routed cycles " << p.shared_vs_routed_cycles);
  }
}

BOOST_AUTO_TEST_CASE(profile_catches_the_shared_branch_marked_as_routed) {
  const auto b = build("deepseek-v2-lite", 3, 64, 64, 2, true, workload::Lowering::pair,
                       workload::ProgramFault::shared_as_routed);
  const cosim::RunResult r = run_golden(b, b.image);
  const auto p = report::make_profile(spec(), r.stages, 0, "golden");
  const auto problems = hbm_problems(p, b.layout);
  for (const auto& s : problems) BOOST_TEST_MESSAGE(s);
  BOOST_TEST(!problems.empty());
  BOOST_TEST(group(p, "shared").cycles == 0u);
  BOOST_CHECK_THROW(build("qwen3-30b-a3b", 3, 64, 64, 2, false, workload::Lowering::pair,
                          workload::ProgramFault::shared_as_routed),
                    UsageError);
}

BOOST_AUTO_TEST_CASE(reference_catches_a_dropped_shared_gate_multiply) {
  const auto good = build("qwen1.5-moe-a2.7b", 4, 64, 64, 3, true);
  BOOST_REQUIRE(good.layout.shared_gate);
  const auto ref =
      workload::reference_layer(machine(), workload::find_model("qwen1.5-moe-a2.7b"), good);
  BOOST_TEST(golden_vs_reference(good, ref, good.image).ok());
  BOOST_TEST(ref.shared_gate.size() == 4u);
  const auto b = build("qwen1.5-moe-a2.7b", 4, 64, 64, 3, true, workload::Lowering::pair,
                       workload::ProgramFault::shared_gate_dropped);
  const auto c = golden_vs_reference(b, ref, b.image);
  BOOST_TEST(!c.bit_exact());
  BOOST_CHECK_THROW(build("deepseek-v2-lite", 4, 64, 64, 3, true, workload::Lowering::pair,
                          workload::ProgramFault::shared_gate_dropped),
                    UsageError);
}

BOOST_AUTO_TEST_CASE(reference_guard_fails_a_saturated_shared_gate) {
  auto b = build("qwen1.5-moe-a2.7b", 4, 64, 64, 3, true);
  // w_g[h] = +-16 with the sign of sum_t x_t[h] (MXFP8: code +-256 = 0x78 / 0xF8, scale 2^-4),
  // so w_g . x_t is large and positive for every token and sigmoid rounds to exactly 1.0.
  const workload::Layout& L = b.layout;
  const auto mxb = static_cast<uint64_t>(machine().mx_block());
  auto& hbm = b.image.hbm.at(0).bytes;
  for (uint64_t h = 0; h < L.hidden; ++h) {
    double sum = 0;
    for (uint64_t t = 0; t < L.tokens; ++t) {
      const uint64_t o = t * L.hidden + h;
      sum += num::bf16_to_f32(
          num::mx_dequant_bf16(hbm[L.x.base + o], hbm[L.x.base + L.x.scale_offset + o / mxb]));
    }
    hbm[L.wg.base + h] = sum >= 0 ? 0x78 : 0xF8;
    hbm[L.wg.base + L.wg.scale_offset + h / mxb] = 127 - 4;
  }
  const auto ref =
      workload::reference_layer(machine(), workload::find_model("qwen1.5-moe-a2.7b"), b);
  BOOST_REQUIRE(ref.shared_gate.size() == 4u);
  for (uint16_t g : ref.shared_gate) BOOST_TEST(g == 0x3F80u);  // BF16 1.0
  const auto c = golden_vs_reference(b, ref, b.image);
  BOOST_TEST(c.bit_exact());  // the machine and the reference agree ...
  BOOST_TEST(!c.ok());        // ... but a dropped gate multiply would go unseen
  BOOST_REQUIRE(c.guard_failures.size() == 1u);
  BOOST_TEST(c.guard_failures[0].find("exactly 1.0 on 4 of 4 tokens") != std::string::npos);
}

namespace {

/// Token t's expert ids and BF16 route weights from the golden model's SRAMs.
struct Routes {
  std::vector<std::vector<uint32_t>> ids;
  std::vector<std::vector<double>> weights;
};
Routes golden_routes(const workload::Layout& L) {
  const auto ids = golden().read(isa::Space::IntSram, L.int_ids, uint64_t{L.tokens} * L.top_k);
  const auto w = golden().read(isa::Space::FpSram, L.fp_weights, uint64_t{L.tokens} * L.top_k);
  Routes r;
  for (unsigned t = 0; t < L.tokens; ++t) {
    r.ids.emplace_back();
    r.weights.emplace_back();
    for (unsigned j = 0; j < L.top_k; ++j) {
      const unsigned p = t * L.top_k + j;
      r.ids.back().push_back(ids[4 * p] | (ids[4 * p + 1] << 8));
      r.weights.back().push_back(
          num::bf16_to_f32(static_cast<uint16_t>(w[2 * p] | (w[2 * p + 1] << 8))));
    }
  }
  return r;
}

}  // namespace

BOOST_AUTO_TEST_CASE(reference_equals_golden_deepseek_v3_routing) {
  const auto& m = workload::find_model("deepseek-v3");
  for (const auto lowering : {workload::Lowering::pair, workload::Lowering::expert}) {
    const auto b = build("deepseek-v3", 4, 64, 64, 5, true, lowering);
    const auto ref = workload::reference_layer(machine(), m, b);
    const auto c = golden_vs_reference(b, ref, b.image);
    BOOST_TEST(c.ok());
    for (const workload::ErrorRow& e : c.errors) BOOST_TEST(e.cosine > 0.99, e.what);
    // From the model's definition (docs/sources.md, Routing functions: DeepSeek-V3), not from
    // the code under test: the 8 experts of a token lie in at most topk_group = 4 of the 8 groups
    // of 32, and the weights sum to routed_scaling_factor 2.5 (up to BF16 rounding).
    const Routes r = golden_routes(b.layout);
    for (unsigned t = 0; t < 4; ++t) {
      std::set<uint32_t> groups;
      double sum = 0;
      for (unsigned j = 0; j < 8; ++j) {
        groups.insert(r.ids[t][j] / 32);
        sum += r.weights[t][j];
        BOOST_TEST(r.ids[t][j] == ref.expert_ids[t * 8 + j]);
      }
      BOOST_TEST(groups.size() <= 4u, "token " << t);
      BOOST_TEST(std::fabs(sum - 2.5) < 0.05, "token " << t << " sum " << sum);
    }
  }
}

BOOST_AUTO_TEST_CASE(reference_catches_deepseek_v3_routing_faults) {
  const auto& m = workload::find_model("deepseek-v3");
  const auto good = build("deepseek-v3", 4, 64, 64, 5);
  const auto ref = workload::reference_layer(machine(), m, good);
  BOOST_TEST(golden_vs_reference(good, ref, good.image).ok());
  const Routes right = golden_routes(good.layout);
  for (const auto fault :
       {workload::ProgramFault::correction_bias_dropped, workload::ProgramFault::group_mask_dropped,
        workload::ProgramFault::weights_from_biased_scores}) {
    BOOST_TEST_CONTEXT("fault " << static_cast<int>(fault)) {
      const auto b = build("deepseek-v3", 4, 64, 64, 5, false, workload::Lowering::pair, fault);
      BOOST_TEST(!golden_vs_reference(b, ref, b.image).bit_exact());
      const Routes wrong = golden_routes(b.layout);
      if (fault == workload::ProgramFault::weights_from_biased_scores) {
        // The same experts, other weights.
        BOOST_TEST((wrong.ids == right.ids));
        BOOST_TEST((wrong.weights != right.weights));
      } else {
        // The bias and the group mask each change which experts some token selects.
        BOOST_TEST((wrong.ids != right.ids));
      }
    }
  }
  BOOST_CHECK_THROW(build("qwen3-30b-a3b", 2, 64, 64, 5, false, workload::Lowering::pair,
                          workload::ProgramFault::correction_bias_dropped),
                    UsageError);
}

BOOST_AUTO_TEST_CASE(reference_equals_golden_llama4_input_scaled) {
  const auto& m = workload::find_model("llama-4-scout");
  for (const auto lowering : {workload::Lowering::pair, workload::Lowering::expert}) {
    const auto b = build("llama-4-scout", 4, 64, 64, 5, true, lowering);
    const auto ref = workload::reference_layer(machine(), m, b);
    const auto c = golden_vs_reference(b, ref, b.image);
    BOOST_TEST(c.ok());
    for (const workload::ErrorRow& e : c.errors) BOOST_TEST(e.cosine > 0.99, e.what);
    // The route weight is sigmoid(l_i*) in (0, 1), away from 1 on most tokens: scaling the
    // input and scaling the output give different layers (SwiGLU is not linear).
    const Routes r = golden_routes(b.layout);
    unsigned mid = 0;
    for (unsigned t = 0; t < 4; ++t) {
      BOOST_TEST(r.ids[t][0] == ref.expert_ids[t]);
      BOOST_TEST(r.weights[t][0] > 0.0);
      BOOST_TEST(r.weights[t][0] < 1.0);
      mid += r.weights[t][0] < 0.9;
    }
    BOOST_TEST(mid >= 2u);
  }
}

BOOST_AUTO_TEST_CASE(reference_catches_llama4_score_on_the_output) {
  const auto& m = workload::find_model("llama-4-scout");
  for (const auto lowering : {workload::Lowering::pair, workload::Lowering::expert}) {
    BOOST_TEST_CONTEXT("lowering " << static_cast<int>(lowering)) {
      const auto good = build("llama-4-scout", 4, 64, 64, 5, false, lowering);
      const auto ref = workload::reference_layer(machine(), m, good);
      BOOST_TEST(golden_vs_reference(good, ref, good.image).ok());
      const Routes right = golden_routes(good.layout);  // read from the run just made
      const auto bad = build("llama-4-scout", 4, 64, 64, 5, false, lowering,
                             workload::ProgramFault::score_scales_output);
      BOOST_TEST(!golden_vs_reference(bad, ref, bad.image).bit_exact());
      // The routing is untouched: the same experts and scores, used in the wrong place.
      const Routes wrong = golden_routes(bad.layout);
      BOOST_TEST((wrong.ids == right.ids));
      BOOST_TEST((wrong.weights == right.weights));
    }
  }
  BOOST_CHECK_THROW(build("qwen3-30b-a3b", 2, 64, 64, 5, false, workload::Lowering::pair,
                          workload::ProgramFault::score_scales_output),
                    UsageError);
}

BOOST_AUTO_TEST_CASE(reference_equals_golden_one_group_sigmoid_routing) {
  // Kimi-K2 / GLM-4.5 routing (docs/sources.md, Routing functions: Kimi-K2 and GLM-4.5):
  // DeepSeek-V3's with n_group = topk_group = 1 (no group step); Kimi's rsf 2.827 (bf16
  // 2.828125) and GLM-4.5-Air's 1.0.
  for (const double rsf : {2.827, 1.0}) {
    workload::ModelPreset m = workload::find_model("deepseek-v3");
    m.n_group = m.topk_group = 1;
    m.routed_scaling_factor = rsf;
    workload::BuildOptions o;
    o.model = &m;
    o.tokens = 3;
    o.hidden = o.intermediate = 64;
    o.seed = 9;
    const auto b = workload::build_moe_layer(spec(), machine(), o);
    BOOST_TEST(!b.layout.group_limited());
    const auto ref = workload::reference_layer(machine(), m, b);
    BOOST_TEST(golden_vs_reference(b, ref, b.image).ok(), "rsf " << rsf);
    const Routes r = golden_routes(b.layout);
    for (unsigned t = 0; t < 3; ++t) {
      double sum = 0;
      for (double w : r.weights[t]) sum += w;
      BOOST_TEST(std::fabs(sum - rsf) < 0.02 * rsf, "rsf " << rsf << " token " << t);
    }
  }
}
