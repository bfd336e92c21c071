// MoE program builder (see builder.hpp for the math and the lowering).
#include "moesim/workload/builder.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstring>
#include <numeric>
#include <random>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "image_gen.hpp"
#include "moesim/isa/assembler.hpp"
#include "moesim/isa/numerics.hpp"
#include "moesim/isa/tables.hpp"
#include "program_fault_rewrite.hpp"

namespace moesim::workload {
namespace {

// Register plan: gp1..gp3 loop counters by nesting depth, gp4..gp14 temporaries of the current
// phase, gp15 scratch of li()/addi() for constants wider than imm18.
constexpr unsigned kL1 = 1, kL2 = 2, kL3 = 3, kScratch = 15;
// f1 logit / gate accumulator, f2 limit, f3 -limit, f4 -alpha, f5 1.0, f6 route weight, f7 -1.
constexpr unsigned kFAcc = 1, kFLimit = 2, kFNegLimit = 3, kFNegAlpha = 4, kFOne = 5, kFRoute = 6,
                   kFNegOne = 7;
// a0 inputs/outputs, a1 expert weights.
constexpr unsigned kAIn = 0, kAOut = 0, kAExpert = 1;
constexpr uint64_t kImm18 = uint64_t{1} << 18;
constexpr uint64_t kHbmAlign = 64;

std::string gp(unsigned i) { return "gp" + std::to_string(i); }
std::string fr(unsigned i) { return "f" + std::to_string(i); }
std::string ar(unsigned i) { return "a" + std::to_string(i); }

uint64_t round_up(uint64_t v, uint64_t m) { return (v + m - 1) / m * m; }
uint64_t ceil_div(uint64_t v, uint64_t m) { return (v + m - 1) / m; }

/// Assembly text with sticky stage markers and helpers for wide constants.
class Emitter {
 public:
  void stage(const std::string& name) {
    if (name == stage_) return;
    out_ << "; @stage=" << name << '\n';
    stage_ = name;
  }
  /// Sticky `; @pair=` marker: the token / expert pair the following instructions work on.
  void pair(const isa::WorkTag& tag) {
    if (tag == pair_) return;
    out_ << "; @pair=" << isa::format_work_tag(tag) << '\n';
    pair_ = tag;
  }
  void comment(const std::string& text) { out_ << "; " << text << '\n'; }
  void blank() { out_ << '\n'; }
  void op(const std::string& text) { out_ << text << '\n'; }

  /// gp[rd] = value (u32), with S_LUI_INT when it does not fit imm18.
  void li(unsigned rd, uint64_t value) {
    if (value >= (uint64_t{1} << 32)) throw std::logic_error("li: value does not fit 32 bits");
    if (value < kImm18) {
      op("S_ADDI_INT " + gp(rd) + ", gp0, " + std::to_string(value));
      return;
    }
    op("S_LUI_INT " + gp(rd) + ", " + std::to_string(value >> 12));
    if ((value & 0xFFF) != 0)
      op("S_ADDI_INT " + gp(rd) + ", " + gp(rd) + ", " + std::to_string(value & 0xFFF));
  }
  /// gp[rd] = gp[rs] + value.
  void addi(unsigned rd, unsigned rs, uint64_t value) {
    if (value < kImm18) {
      op("S_ADDI_INT " + gp(rd) + ", " + gp(rs) + ", " + std::to_string(value));
      return;
    }
    li(kScratch, value);
    op("S_ADD_INT " + gp(rd) + ", " + gp(rs) + ", " + gp(kScratch));
  }
  void mov(unsigned rd, unsigned rs) { addi(rd, rs, 0); }
  void loop_start(unsigned counter, uint64_t count) {
    op("C_LOOP_START " + gp(counter) + ", " + std::to_string(count));
  }
  void loop_end(unsigned counter) { op("C_LOOP_END " + gp(counter)); }

  std::string text() const { return out_.str(); }

 private:
  std::ostringstream out_;
  std::string stage_ = "other";
  isa::WorkTag pair_;
};

using image_gen::bf16_of;
using image_gen::Mt64;
using image_gen::mx_quantizer;
using image_gen::MxQuantizer;

/// Draws approximately normal values from a seeded std::mt19937_64 with only exact IEEE
/// operations (Irwin-Hall of 4 uniforms, unit variance), so images are the same on every host.
class Generator {
 public:
  explicit Generator(uint64_t seed) : rng_(seed) {}
  double normal(double stddev) {
    double s = 0;
    for (int i = 0; i < 4; ++i) s += uniform(rng_());
    return (s - 2.0) * 1.7320508075688772 * stddev;
  }
  /// (r >> 11) * 2^-53 exactly; r >> 11 < 2^53, so the signed conversion is exact too.
  static double uniform(uint64_t r) {
    return static_cast<double>(static_cast<int64_t>(r >> 11)) * 0x1.0p-53;
  }
  Mt64& rng() { return rng_; }

 private:
  Mt64 rng_;
};

/// One MXFP8 tensor to fill: element i (row-major) is drawn with `stddev` if i < valid, else 0.
struct Fill {
  MxMatrix m;
  uint64_t valid = 0;
  double stddev = 0;
};

/// A run of whole MX blocks of one Fill, generated from its own snapshot of the stream.
struct Piece {
  const Fill* fill = nullptr;
  uint64_t first_block = 0, blocks = 0;
  uint64_t draws = 0;  ///< 4 per valid element
};

// Hot loops compiled for AVX-512 and AVX2 as well, picked at load time. Same results: integer
// work, exact conversions, and the only multiply-add that could be contracted into an FMA has
// an exact product (an integer times 2^-53).
#if defined(__GNUC__) && defined(__x86_64__) && defined(__ELF__)
#define MOESIM_HOT_CLONES __attribute__((target_clones("arch=x86-64-v4", "avx2", "default")))
#else
#define MOESIM_HOT_CLONES
#endif

/// Generates and quantises one piece from `rng` (the stream at the piece's first draw).
MOESIM_HOT_CLONES void make_piece(std::vector<uint8_t>& hbm, const Piece& p, Mt64 rng,
                                  uint64_t mxb) {
  const MxQuantizer& q = mx_quantizer();
  std::vector<uint64_t> raw(4 * mxb);
  std::vector<uint16_t> block(mxb);
  const Fill& f = *p.fill;
  for (uint64_t b = p.first_block; b < p.first_block + p.blocks; ++b) {
    const uint64_t o = b * mxb;
    const uint64_t n = o >= f.valid ? 0 : std::min(mxb, f.valid - o);
    rng.fill(raw.data(), static_cast<size_t>(4 * n));
    for (uint64_t i = 0; i < n; ++i) {
      double s = 0;
      for (uint64_t k = 0; k < 4; ++k) s += Generator::uniform(raw[4 * i + k]);
      block[i] = bf16_of(static_cast<float>((s - 2.0) * 1.7320508075688772 * f.stddev));
    }
    std::fill(block.begin() + static_cast<std::ptrdiff_t>(n), block.end(), uint16_t{0});
    hbm[f.m.base + f.m.scale_offset + b] = q.quantize(block.data(), mxb, hbm.data() + f.m.base + o);
  }
}

/// Records the stream state at the start of each piece in start[k], then publishes k + 1 in
/// `reached`; leaves `rng` after the last piece.
MOESIM_HOT_CLONES void scout(const std::vector<Piece>& pieces, std::vector<Mt64>& start,
                             std::atomic<size_t>& reached, Mt64& rng) {
  for (size_t k = 0; k < pieces.size(); ++k) {
    start[k] = rng;
    reached.store(k + 1, std::memory_order_release);
    rng.discard(pieces[k].draws);
  }
}

/// Fills every tensor of `fills`, in order, from `gen`'s stream, exactly as drawing them one
/// element after another would; leaves `gen` after the last draw. The stream is cut into pieces
/// of whole MX blocks; this thread skips through it (twists only) recording each piece's start
/// state while the other threads generate the pieces already reached, then it helps.
void fill_all(std::vector<uint8_t>& hbm, const std::vector<Fill>& fills, Generator& gen,
              uint64_t mxb) {
  constexpr uint64_t kPieceBlocks = 4096;
  std::vector<Piece> pieces;
  for (const Fill& f : fills) {
    const uint64_t blocks = f.m.rows * f.m.cols / mxb;
    for (uint64_t b = 0; b < blocks; b += kPieceBlocks) {
      Piece p{&f, b, std::min(kPieceBlocks, blocks - b), 0};
      const uint64_t lo = b * mxb, hi = (b + p.blocks) * mxb;
      p.draws = 4 * (f.valid <= lo ? 0 : std::min(hi, f.valid) - lo);
      pieces.push_back(p);
    }
  }
  std::vector<Mt64> start(pieces.size(), gen.rng());
  std::atomic<size_t> reached{0}, next{0};
  auto work = [&] {
    for (size_t k = next.fetch_add(1); k < pieces.size(); k = next.fetch_add(1)) {
      while (reached.load(std::memory_order_acquire) <= k) std::this_thread::yield();
      make_piece(hbm, pieces[k], start[k], mxb);
    }
  };
  const unsigned hw = std::thread::hardware_concurrency();
  const unsigned threads = std::min(8u, std::max(1u, hw));
  std::vector<std::thread> helpers;
  for (unsigned t = 1; t < threads; ++t) helpers.emplace_back(work);
  scout(pieces, start, reached, gen.rng());
  work();
  for (std::thread& t : helpers) t.join();
}

void put_u16(std::vector<uint8_t>& bytes, uint64_t word, uint16_t v) {
  bytes[2 * word] = static_cast<uint8_t>(v & 0xFF);
  bytes[2 * word + 1] = static_cast<uint8_t>(v >> 8);
}

void put_u32(std::vector<uint8_t>& bytes, uint64_t word, uint32_t v) {
  for (int i = 0; i < 4; ++i) bytes[4 * word + i] = static_cast<uint8_t>(v >> (8 * i));
}

class LayerBuilder {
 public:
  LayerBuilder(const isa::Spec& spec, const isa::MachinePreset& m, const BuildOptions& o)
      : spec_(spec), m_(m), opt_(o) {
    vlen_ = static_cast<uint64_t>(m.vlen());
    mlen_ = static_cast<uint64_t>(m.mlen());
    blen_ = static_cast<uint64_t>(m.blen());
    mxb_ = static_cast<uint64_t>(m.mx_block());
    vrows_ = static_cast<uint64_t>(m.get("HBM_V_ROWS"));
  }

  BuiltProgram build() {
    validate_and_lay_out();
    BuiltProgram out;
    out.layout = L_;
    std::string model_name = opt_.model->name;
    const auto slash = model_name.find_last_of('/');
    if (slash != std::string::npos) model_name = model_name.substr(slash + 1);
    out.name = model_name + "_T" + std::to_string(L_.tokens) + "_H" + std::to_string(L_.hidden) +
               "_I" + std::to_string(L_.intermediate) +
               (L_.shared_intermediate != 0 ? "_S" + std::to_string(L_.shared_intermediate) : "") +
               (opt_.topk == TopkEncoding::register_policy ? "_topkreg" : "") +
               (opt_.lowering == Lowering::expert ? "_expertmajor" : "") + "_seed" +
               std::to_string(opt_.seed) + "_" + m_.name + ".asm";
    out.asm_text = emit_program();
    try {
      out.program = isa::assemble(spec_, out.asm_text, out.name);
    } catch (const isa::AsmError& e) {
      throw std::logic_error(std::string("program builder emitted bad assembly: ") + e.what());
    }
    const auto imem = static_cast<uint64_t>(m_.get("IMEM_WORDS"));
    if (out.program.size() > imem)
      throw UsageError("--tokens " + std::to_string(L_.tokens) + ": the program has " +
                       std::to_string(out.program.size()) + " instructions; machine preset '" +
                       m_.name + "' has IMEM_WORDS=" + std::to_string(imem));
    out.image = make_image();
    if (opt_.model->activation == Activation::clamped_swiglu) {
      std::ostringstream alpha;
      alpha << "alpha " << opt_.model->swiglu_alpha << " is the BF16 constant "
            << num::bf16_to_f32(L_.alpha_bf16) << " (0x" << std::hex << std::uppercase
            << L_.alpha_bf16 << ")";
      out.notes.push_back(alpha.str());
    }
    out.notes.push_back(
        "W1 (gate_up_proj) is stored de-interleaved: output columns [0, I) gate, [I, 2I) up");
    out.notes.push_back("tokens padded to " + std::to_string(L_.tokens_padded) +
                        " (a multiple of HBM_V_ROWS and BLEN); padded rows are zero and not "
                        "routed");
    if (L_.topk_select != L_.top_k)
      out.notes.push_back("norm_topk_prob false: V_TOPK selects " + std::to_string(L_.experts) +
                          " of " + std::to_string(L_.experts) +
                          " (the softmax over all experts, in rank order); the first " +
                          std::to_string(L_.top_k) + " ranks are routed with those weights");
    if (L_.routing == Layout::Routing::sigmoid_biased) {
      std::ostringstream n;
      n << "sigmoid routing on the scalar FP unit: s = sigmoid(l), s' = s + b (b = "
           "e_score_correction_bias, BF16 in FP SRAM)";
      if (L_.group_limited())
        n << ", group score = sum of the top-2 s' of each of " << L_.n_group << " groups, top "
          << L_.topk_group << " groups kept, the others masked with -inf";
      n << ", V_TOPK top-" << L_.top_k << " of the masked s', w = s_i / (sum s + bf16(1e-20))"
        << " x bf16(" << opt_.model->routed_scaling_factor
        << ") from the unbiased s (the epsilon only matters when the BF16 sum is below ~2^-58)";
      out.notes.push_back(n.str());
    }
    if (L_.routing == Layout::Routing::input_scaled)
      out.notes.push_back(
          "input-scaled routing: V_TOPK top-" + std::to_string(L_.top_k) +
          " of the logits, score = sigmoid(l_i) on the scalar FP unit scales the expert input "
          "(bf16(score * x)); the expert output is added unweighted");
    if (opt_.fault == ProgramFault::score_scales_output)
      out.notes.push_back(
          "planted fault: the score scales the expert output (bf16(score * e)) instead of its "
          "input");
    if (L_.shared_gate)
      out.notes.push_back(
          "the shared gate sigmoid runs on the scalar FP unit (S_SUB_FP from f0, S_EXP_FP, "
          "S_ADD_FP 1, S_RECI_FP), then V_ADD_VF broadcasts it onto a zero row");
    out.utilisation = utilisation();
    return out;
  }

 private:
  [[noreturn]] void too_small(const std::string& what, uint64_t need, const std::string& key,
                              uint64_t have) const {
    throw UsageError("--tokens " + std::to_string(opt_.tokens) + " --hidden " +
                     std::to_string(opt_.hidden) + " --intermediate " +
                     std::to_string(opt_.intermediate) + ": the layer needs " +
                     std::to_string(need) + " " + what + "; machine preset '" + m_.name + "' has " +
                     key + "=" + std::to_string(have));
  }

  /// The route weight scales the expert input (Llama-4) rather than its output; the planted
  /// fault score-scales-output moves it to the output.
  bool scale_input() const {
    return L_.routing == Layout::Routing::input_scaled &&
           opt_.fault != ProgramFault::score_scales_output;
  }

  void validate_and_lay_out() {
    const ModelPreset& model = *opt_.model;
    check_routing(model);
    if (opt_.shared && model.shared_experts == 0)
      throw UsageError("--shared: model " + model.name + " has no shared expert");
    if (opt_.fault == ProgramFault::score_scales_output && !model.scores_scale_input)
      throw UsageError("--plant-fault score-scales-output: model " + model.name +
                       "'s route weight does not scale the expert input (Llama-4's does)");
    if (mlen_ != vlen_)
      throw UsageError("--machine " + m_.name + ": MLEN != VLEN (machine.yaml requires equal)");
    if (static_cast<uint64_t>(m_.get("HBM_M_ROWS")) != mlen_)
      throw UsageError("--machine " + m_.name +
                       ": the builder needs HBM_M_ROWS = MLEN (one H_PREFETCH_M per tile)");
    if (vlen_ % mxb_ != 0 || mlen_ % blen_ != 0)
      throw UsageError("--machine " + m_.name + ": VLEN must be a multiple of MX_BLOCK and BLEN");
    if (opt_.tokens == 0) throw UsageError("--tokens must be at least 1");
    auto check_dim = [&](const char* flag, unsigned v) {
      if (v == 0 || v % vlen_ != 0)
        throw UsageError(std::string(flag) + " " + std::to_string(v) +
                         " is not a positive multiple of VLEN (" + std::to_string(vlen_) +
                         ", machine preset '" + m_.name + "')");
    };
    check_dim("--hidden", opt_.hidden);
    check_dim("--intermediate", opt_.intermediate);
    if (opt_.shared) {
      L_.shared_gate = model.shared_gate;
      L_.shared_intermediate = opt_.shared_intermediate;
      if (L_.shared_intermediate == 0) {
        const uint64_t scaled = uint64_t{model.shared_intermediate} * opt_.intermediate;
        if (model.intermediate == 0 || scaled % model.intermediate != 0)
          throw UsageError("--intermediate " + std::to_string(opt_.intermediate) + ": " +
                           model.name + "'s shared width " +
                           std::to_string(model.shared_intermediate) +
                           " does not scale to it; "
                           "give --shared-intermediate");
        L_.shared_intermediate = static_cast<unsigned>(scaled / model.intermediate);
      }
      check_dim("--shared-intermediate", L_.shared_intermediate);
    }

    L_.lowering = opt_.lowering;
    L_.tokens = opt_.tokens;
    L_.tokens_padded = static_cast<unsigned>(round_up(opt_.tokens, std::lcm(vrows_, blen_)));
    L_.hidden = opt_.hidden;
    L_.intermediate = opt_.intermediate;
    L_.experts = model.experts;
    L_.top_k = model.top_k;
    L_.pairs = L_.tokens * L_.top_k;
    using Routing = Layout::Routing;
    L_.routing = model.scores_scale_input          ? Routing::input_scaled
                 : model.scoring_func == "sigmoid" ? Routing::sigmoid_biased
                                                   : Routing::softmax;
    // Only softmax routing without renormalisation needs V_TOPK's weights over all E.
    L_.topk_select =
        L_.routing == Routing::softmax && !model.norm_topk_prob ? L_.experts : L_.top_k;
    if (L_.routing == Routing::sigmoid_biased) {
      L_.n_group = model.n_group;
      L_.topk_group = model.topk_group;
      if (L_.group_limited()) L_.group_rows = static_cast<unsigned>(ceil_div(L_.n_group, vlen_));
    }
    L_.logit_rows = static_cast<unsigned>(ceil_div(L_.experts, vlen_));
    // V_TOPK rmask: a hardwired policy of isa.yaml `topk_policies` when one has exactly this
    // (E, k) and the encoding is automatic, else the register policy (TOPK_POLICY, set by
    // C_SET_TOPK_REG).
    const isa::TopkPolicySpec* hw = spec_.topk_hardwired(L_.experts, L_.topk_select);
    if (hw != nullptr && opt_.topk == TopkEncoding::automatic) {
      L_.topk_rmask = hw->rmask;
    } else {
      const auto max_e = static_cast<uint64_t>(m_.get("MAX_TOPK_EXPERTS"));
      const isa::TopkPolicySpec* reg = spec_.topk_register_policy();
      if (reg == nullptr || L_.experts > max_e || L_.top_k == 0 || L_.top_k > L_.experts ||
          L_.topk_select > 255)
        throw UsageError("--model " + model.name + ": V_TOPK cannot select " +
                         std::to_string(L_.topk_select) + " of " + std::to_string(L_.experts) +
                         " experts (MAX_TOPK_EXPERTS=" + std::to_string(max_e) +
                         ", the policy register holds k <= 255)");
      L_.topk_rmask = reg->rmask;
    }

    const uint64_t H = L_.hidden, I = L_.intermediate, E = L_.experts;
    const uint64_t IS = L_.shared_intermediate;
    const uint64_t hb = H / vlen_, ib = I / vlen_, isb = IS / vlen_;
    // Each projection holds all K/MLEN tiles of one output tile in MRAM at once.
    const auto mram_tiles = static_cast<uint64_t>(m_.get("MRAM_TILES"));
    for (const auto& [flag, k] : {std::pair<const char*, uint64_t>{"--hidden", H},
                                  {"--intermediate", I},
                                  {"--shared-intermediate", IS}})
      if (k / mlen_ > mram_tiles)
        throw UsageError(std::string(flag) + " " + std::to_string(k) +
                         ": a projection with K = " + std::to_string(k) + " needs " +
                         std::to_string(k / mlen_) + " MRAM tiles (one per " +
                         std::to_string(mlen_) + "-wide K chunk); machine preset '" + m_.name +
                         "' has MRAM_TILES=" + std::to_string(mram_tiles) +
                         " (K <= " + std::to_string(mram_tiles * mlen_) + ")");

    // HBM: inputs first (the initial image), then the output.
    uint64_t cursor = 0;
    auto mx = [&](uint64_t rows, uint64_t cols) {
      MxMatrix mm;
      mm.base = cursor;
      mm.rows = rows;
      mm.cols = cols;
      mm.scale_offset = rows * cols;
      mm.bytes = rows * cols + rows * cols / mxb_;
      cursor = round_up(cursor + mm.bytes, kHbmAlign);
      return mm;
    };
    L_.x = mx(L_.tokens_padded, H);
    L_.wr = mx(round_up(E, vrows_), H);
    if (model.router_bias) L_.br = mx(round_up(L_.logit_rows, vrows_), vlen_);
    if (model.expert_bias) {
      L_.b1 = mx(round_up(E * 2 * ib, vrows_), vlen_);
      L_.b2 = mx(round_up(E * hb, vrows_), vlen_);
    }
    if (IS != 0) {
      L_.ws1 = mx(2 * IS, H);
      L_.ws2 = mx(H, IS);
      if (L_.shared_gate) L_.wg = mx(vrows_, H);
    }
    L_.w1_expert_bytes = round_up(2 * I * H + 2 * I * H / mxb_, kHbmAlign);
    L_.w1 = cursor;
    cursor += E * L_.w1_expert_bytes;
    L_.w2_expert_bytes = round_up(H * I + H * I / mxb_, kHbmAlign);
    L_.w2 = cursor;
    cursor += E * L_.w2_expert_bytes;
    L_.hbm_input_end = cursor;
    L_.y = mx(L_.tokens_padded, H);
    const auto hbm_bytes = static_cast<uint64_t>(m_.get("HBM_BYTES"));
    if (cursor > hbm_bytes || cursor >= (uint64_t{1} << 32))
      too_small("HBM bytes", cursor, "HBM_BYTES", hbm_bytes);

    // VRAM rows.
    uint64_t row = 0;
    auto rows = [&](uint64_t n) {
      const uint64_t at = row * vlen_;
      row += n;
      return at;
    };
    L_.v_x = rows(L_.tokens_padded * hb);
    L_.v_wr = rows(L_.wr.rows * hb);
    L_.v_br = rows(L_.br.rows);
    L_.v_b1 = rows(L_.b1.rows);
    L_.v_b2 = rows(L_.b2.rows);
    L_.v_logits = rows(uint64_t{L_.tokens} * L_.logit_rows);
    L_.v_tmp = rows(1);
    L_.v_groups = L_.group_rows != 0 ? rows(L_.group_rows) : 0;
    if (L_.lowering == Lowering::pair) {
      L_.v_in = rows(blen_ * hb);
      L_.v_h1 = rows(blen_ * 2 * ib);
      L_.v_act = rows(blen_ * ib);
      L_.v_out = rows(blen_ * hb);
    } else {
      L_.v_eh1 = rows(uint64_t{L_.tokens_padded} * 2 * ib);
      L_.v_eact = rows(uint64_t{L_.tokens_padded} * ib);
      L_.v_eout = rows(uint64_t{L_.tokens_padded} * hb);
      if (L_.routing == Layout::Routing::input_scaled)
        L_.v_ein = rows(uint64_t{L_.tokens_padded} * hb);
    }
    L_.v_acc = rows(L_.tokens_padded * hb);
    if (IS != 0) {
      L_.v_wg = rows(L_.wg.rows * hb);
      L_.v_zero = rows(1);
      L_.v_gate = rows(1);
      L_.v_sh1 = rows(uint64_t{L_.tokens_padded} * 2 * isb);
      L_.v_shact = rows(uint64_t{L_.tokens_padded} * isb);
      L_.v_shout = rows(uint64_t{L_.tokens_padded} * hb);
    }
    L_.vram_rows_used = row;
    const auto vram_rows = static_cast<uint64_t>(m_.get("VRAM_ROWS"));
    if (row > vram_rows) too_small("VRAM rows", row, "VRAM_ROWS", vram_rows);

    // FP SRAM words.
    L_.fp_zero = 0;
    L_.fp_limit = vlen_;
    L_.fp_neg_limit = vlen_ + 1;
    L_.fp_neg_alpha = vlen_ + 2;
    L_.fp_one = vlen_ + 3;
    L_.fp_neg_one = vlen_ + 4;
    L_.fp_logits = vlen_ + 5;
    L_.fp_weights = L_.fp_logits + uint64_t{L_.logit_rows} * vlen_;
    L_.fp_words_used = L_.fp_weights + uint64_t{L_.tokens} * L_.topk_select;
    if (L_.lowering == Lowering::expert) {
      L_.fp_dense = L_.fp_words_used;
      L_.fp_words_used += uint64_t{L_.tokens} * E;
    }
    if (L_.routing == Layout::Routing::sigmoid_biased) {
      auto words = [&](uint64_t n) {
        const uint64_t at = L_.fp_words_used;
        L_.fp_words_used += n;
        return at;
      };
      L_.fp_neg_inf = words(1);
      L_.fp_eps = words(1);
      L_.fp_rsf = words(1);
      L_.fp_bias = words(E);
      L_.fp_biased = words(uint64_t{L_.logit_rows} * vlen_);  // S_MAP_V_FP reads whole rows
      if (L_.group_limited()) {
        L_.fp_groups = words(uint64_t{L_.group_rows} * vlen_);
        L_.fp_penalty = words(L_.n_group);
        L_.fp_group_w = words(L_.topk_group);
      }
    }
    const auto fp_words = static_cast<uint64_t>(m_.get("FP_SRAM_WORDS"));
    if (L_.fp_words_used > fp_words)
      too_small("FP SRAM words", L_.fp_words_used, "FP_SRAM_WORDS", fp_words);

    // INT SRAM words.
    L_.int_ids = 0;
    L_.int_tokens = uint64_t{L_.tokens} * L_.topk_select;
    L_.int_words_used = L_.int_tokens + L_.pairs;
    if (L_.group_limited()) {
      L_.int_groups = L_.int_words_used;
      L_.int_words_used += L_.topk_group;
    }
    const auto int_words = static_cast<uint64_t>(m_.get("INT_SRAM_WORDS"));
    if (L_.int_words_used > int_words)
      too_small("INT SRAM words", L_.int_words_used, "INT_SRAM_WORDS", int_words);

    L_.alpha_bf16 = num::f32_to_bf16(static_cast<float>(
        model.activation == Activation::clamped_swiglu ? model.swiglu_alpha : 1.0));
  }

  /// Routing the builder lowers (see builder.hpp); anything else names its config.json field.
  static void check_routing(const ModelPreset& m) {
    auto refuse = [&](const std::string& field, const std::string& why) {
      throw UsageError("--model " + m.name + ": " + field + " (" + m.routing + "): " + why);
    };
    auto number = [](double v) {
      std::ostringstream o;
      o << v;
      return o.str();
    };
    if (m.top_k == 0 || m.top_k > m.experts)
      throw UsageError("--model " + m.name + ": num_experts_per_tok " + std::to_string(m.top_k) +
                       " is not in 1.." + std::to_string(m.experts));
    if (m.scoring_func != "softmax" && m.scoring_func != "sigmoid")
      refuse("scoring_func '" + m.scoring_func + "'", "moesim lowers softmax and sigmoid scores");
    const bool grouped = m.n_group > 1 && m.topk_group < m.n_group;
    if (m.scores_scale_input) {
      // Llama-4: sigmoid of the selected logits, no bias, no groups, no scaling factor.
      if (m.scoring_func != "sigmoid")
        refuse("scoring_func '" + m.scoring_func + "'",
               "a router whose score scales the expert input uses sigmoid scores");
      if (m.correction_bias || grouped || m.routed_scaling_factor != 1.0)
        refuse("model_type '" + m.model_type + "' router",
               "an input-scaling router with a correction bias, groups or a scaling factor is "
               "not implemented");
      return;
    }
    if (m.scoring_func == "softmax") {
      if (m.correction_bias)
        refuse("e_score_correction_bias (topk_method '" + m.topk_method + "')",
               "selection by biased scores is implemented for scoring_func 'sigmoid' only");
      if (grouped)
        refuse("n_group " + std::to_string(m.n_group) + " / topk_group " +
                   std::to_string(m.topk_group) + " (topk_method '" + m.topk_method + "')",
               "group-limited selection of softmax scores is not implemented");
      if (m.routed_scaling_factor != 1.0)
        refuse("routed_scaling_factor " + number(m.routed_scaling_factor),
               "scaled softmax route weights are not implemented");
      return;
    }
    // Sigmoid scores: DeepSeek-V3's noaux_tc (Kimi-K2, GLM-4.5: the same with one group).
    if (!m.correction_bias)
      refuse("topk_method '" + m.topk_method + "'",
             "sigmoid scores are lowered with topk_method 'noaux_tc' (e_score_correction_bias) "
             "only");
    if (m.n_group == 0 || m.experts % m.n_group != 0)
      refuse("n_group " + std::to_string(m.n_group),
             "does not divide the " + std::to_string(m.experts) + " routed experts");
    if (m.topk_group == 0 || m.topk_group > m.n_group)
      refuse("topk_group " + std::to_string(m.topk_group),
             "is not in 1..n_group (" + std::to_string(m.n_group) + ")");
    if (grouped && m.experts / m.n_group < 2)
      refuse("n_group " + std::to_string(m.n_group),
             "a group score sums the top-2 scores of a group, which needs 2 experts per group");
    if (uint64_t{m.topk_group} * (m.experts / m.n_group) < m.top_k)
      refuse("topk_group " + std::to_string(m.topk_group),
             "the kept groups hold fewer than num_experts_per_tok (" + std::to_string(m.top_k) +
                 ") experts");
    if (!(m.routed_scaling_factor > 0) || !std::isfinite(m.routed_scaling_factor))
      refuse("routed_scaling_factor " + number(m.routed_scaling_factor),
             "must be a positive finite number");
  }

  // ---------------------------------------------------------------------------- program text

  std::string emit_program() {
    const ModelPreset& model = *opt_.model;
    e_.comment("moesim MoE layer: " + model.name + " (" + model.hf_id + "), routed" +
               (L_.shared_intermediate != 0 ? " + shared" : "") + ", pair-major");
    e_.comment("T=" + std::to_string(L_.tokens) + " (padded " + std::to_string(L_.tokens_padded) +
               ") H=" + std::to_string(L_.hidden) + " I=" + std::to_string(L_.intermediate) +
               " E=" + std::to_string(L_.experts) + " k=" + std::to_string(L_.top_k) +
               (L_.shared_intermediate != 0 ? " I_s=" + std::to_string(L_.shared_intermediate)
                                            : std::string()) +
               " seed=" + std::to_string(opt_.seed) + " machine=" + m_.name);
    e_.blank();
    emit_input_loads();
    emit_router();
    emit_accumulator_init();
    if (L_.lowering == Lowering::pair) {
      for (unsigned p = 0; p < L_.pairs; ++p) emit_pair(p);
    } else {
      for (unsigned e = 0; e < L_.experts; ++e) emit_expert(e);
    }
    if (L_.shared_intermediate != 0) emit_shared();
    emit_output_store();
    return e_.text();
  }

  /// HBM matrix `mm` (rows a multiple of HBM_V_ROWS, cols a multiple of VLEN) to or from VRAM
  /// at `vram`, column-block-major; one H_PREFETCH_V/H_STORE_V per HBM_V_ROWS rows of a block.
  void emit_matrix_transfer(const std::string& mnemonic, const MxMatrix& mm, uint64_t vram,
                            unsigned areg) {
    e_.li(4, mm.scale_offset);
    e_.op("C_SET_SCALE_REG gp4");
    e_.li(4, mm.cols);
    e_.op("C_SET_STRIDE_REG gp4");
    e_.li(5, mm.base);
    e_.op("C_SET_ADDR_REG " + ar(areg) + ", gp0, gp5");
    e_.li(6, vram);
    e_.li(7, 0);
    e_.loop_start(kL1, mm.cols / vlen_);
    e_.mov(8, 7);
    e_.loop_start(kL2, mm.rows / vrows_);
    e_.op(mnemonic + " gp6, gp8, " + ar(areg) + ", 1, 0");
    e_.addi(6, 6, vrows_ * vlen_);
    e_.addi(8, 8, vrows_ * mm.cols);
    e_.loop_end(kL2);
    e_.addi(7, 7, vlen_);
    e_.loop_end(kL1);
  }

  void emit_input_loads() {
    e_.stage("residual_setup");
    e_.comment("inputs: HBM MXFP8 -> VRAM, column-block-major");
    struct Load {
      const char* what;
      const MxMatrix& mm;
      uint64_t vram;
    };
    const Load loads[] = {{"X", L_.x, L_.v_x},
                          {"router weight W_r", L_.wr, L_.v_wr},
                          {"router bias", L_.br, L_.v_br},
                          {"expert biases b1", L_.b1, L_.v_b1},
                          {"expert biases b2", L_.b2, L_.v_b2},
                          {"shared gate weight w_g", L_.wg, L_.v_wg}};
    for (const Load& l : loads) {
      if (l.mm.rows == 0) continue;  // the model has no such tensor
      e_.comment(std::string(l.what) + ": " + std::to_string(l.mm.rows) + " x " +
                 std::to_string(l.mm.cols) + " at HBM " + std::to_string(l.mm.base) +
                 " -> VRAM row " + std::to_string(l.vram / vlen_));
      emit_matrix_transfer("H_PREFETCH_V", l.mm, l.vram, kAIn);
    }
    e_.blank();
  }

  /// C_SET_TOPK_REG pack_topk_policy(E, k) from an S_ADDI_INT (the form --plant-fault topk-shift-7
  /// rewrites).
  void set_topk_policy(uint64_t experts, uint64_t k) {
    e_.li(13, isa::pack_topk_policy(static_cast<uint32_t>(experts), static_cast<uint32_t>(k)));
    e_.op("C_SET_TOPK_REG gp13");
  }

  void emit_router() {
    const uint64_t hb = L_.hidden / vlen_;
    using Routing = Layout::Routing;
    e_.stage("router_topk");
    const isa::TopkPolicySpec* policy = spec_.topk_policy(L_.topk_rmask);
    const bool register_policy = policy != nullptr && !policy->hardwired();
    // With the group step the policy register alternates per token (groups, then experts).
    if (register_policy && !L_.group_limited()) set_topk_policy(L_.experts, L_.topk_select);
    if (L_.routing != Routing::softmax) {
      e_.comment("f5 = 1.0 for the sigmoids on the scalar FP unit");
      e_.op("S_LD_FP " + fr(kFOne) + ", gp0, " + std::to_string(L_.fp_one));
    }
    e_.li(8, L_.v_tmp);
    for (unsigned t = 0; t < L_.tokens; ++t) {
      e_.pair({static_cast<int32_t>(t), -1, -1, -1});
      e_.comment("token " + std::to_string(t) + ": logits l_e = sum_b X[t,b] . W_r[e,b]");
      e_.li(4, L_.v_wr);
      e_.li(5, L_.fp_logits);
      e_.loop_start(kL1, L_.experts);
      e_.op("S_LD_FP " + fr(kFAcc) + ", gp0, " + std::to_string(L_.fp_zero));
      e_.li(6, L_.v_x + uint64_t{t} * vlen_);
      e_.mov(7, 4);
      e_.loop_start(kL2, hb);
      e_.op("V_MUL_VV gp8, gp6, gp7, 0");
      e_.op("V_RED_SUM " + fr(kFAcc) + ", gp8, 0");
      e_.addi(6, 6, uint64_t{L_.tokens_padded} * vlen_);
      e_.addi(7, 7, L_.wr.rows * vlen_);
      e_.loop_end(kL2);
      e_.op("S_ST_FP " + fr(kFAcc) + ", gp5, 0");
      e_.addi(5, 5, 1);
      e_.addi(4, 4, vlen_);
      e_.loop_end(kL1);
      if (L_.routing == Routing::sigmoid_biased) emit_biased_scores();
      // V_TOPK selects on the logits, or on the masked biased scores s'.
      const uint64_t select_from =
          L_.routing == Routing::sigmoid_biased ? L_.fp_biased : L_.fp_logits;
      const uint64_t logit_row = L_.v_logits + uint64_t{t} * L_.logit_rows * vlen_;
      e_.li(9, logit_row);
      e_.li(10, L_.v_br);
      for (unsigned r = 0; r < L_.logit_rows; ++r) {
        e_.op("S_MAP_V_FP gp9, gp0, " + std::to_string(select_from + r * vlen_));
        if (L_.br.rows != 0) e_.op("V_ADD_VV gp9, gp9, gp10, 0");
        if (r + 1 < L_.logit_rows) {
          e_.addi(9, 9, vlen_);
          e_.addi(10, 10, vlen_);
        }
      }
      if (register_policy && L_.group_limited()) set_topk_policy(L_.experts, L_.topk_select);
      e_.li(9, logit_row);
      e_.li(11, L_.fp_weights + uint64_t{t} * L_.topk_select);
      e_.li(12, L_.int_ids + uint64_t{t} * L_.topk_select);
      e_.op("V_TOPK gp11, gp9, gp12, " + std::to_string(L_.topk_rmask));
      if (L_.routing == Routing::sigmoid_biased) emit_sigmoid_weights(t);
      if (L_.routing == Routing::input_scaled) emit_input_scores(t);
      if (L_.lowering == Lowering::expert) {
        e_.comment("R[t][id] = w for the token's k routed experts (expert-major)");
        for (unsigned j = 0; j < L_.top_k; ++j) {
          const unsigned p = t * L_.top_k + j;
          e_.op("S_LD_INT gp4, gp0, " + std::to_string(L_.id_word(p)));
          e_.addi(4, 4, L_.fp_dense + uint64_t{t} * L_.experts);
          e_.op("S_LD_FP " + fr(kFRoute) + ", gp0, " + std::to_string(L_.weight_word(p)));
          e_.op("S_ST_FP " + fr(kFRoute) + ", gp4, 0");
        }
      }
    }
    e_.pair({});
    e_.blank();
  }

  /// f[fd] = sigmoid(f[fd]) on the scalar FP unit: 1 / (1 + e^(0 - x)), each step BF16 (f5 = 1).
  void emit_scalar_sigmoid(unsigned fd) {
    e_.op("S_SUB_FP " + fr(fd) + ", f0, " + fr(fd));
    e_.op("S_EXP_FP " + fr(fd) + ", " + fr(fd));
    e_.op("S_ADD_FP " + fr(fd) + ", " + fr(fd) + ", " + fr(kFOne));
    e_.op("S_RECI_FP " + fr(fd) + ", " + fr(fd));
  }

  /// DeepSeek-V3 selection scores of the current token (logits at fp_logits): s = sigmoid(l)
  /// written over the logits, s' = s + b at fp_biased, then (group-limited) the group scores,
  /// the group V_TOPK and s' += 0 or -inf per group. Uses f1..f7 (the activation constants are
  /// loaded after the router).
  void emit_biased_scores() {
    const uint64_t E = L_.experts;
    e_.comment("s = sigmoid(l) over the logits; s' = s + b (e_score_correction_bias)");
    e_.li(4, L_.fp_logits);
    e_.loop_start(kL1, E);
    e_.op("S_LD_FP f1, gp4, 0");
    emit_scalar_sigmoid(1);
    e_.op("S_ST_FP f1, gp4, 0");
    e_.op("S_LD_FP f2, gp4, " + std::to_string(L_.fp_bias - L_.fp_logits));
    e_.op("S_ADD_FP f2, f1, f2");
    e_.op("S_ST_FP f2, gp4, " + std::to_string(L_.fp_biased - L_.fp_logits));
    e_.addi(4, 4, 1);
    e_.loop_end(kL1);
    if (!L_.group_limited()) return;
    const uint64_t gs = E / L_.n_group;
    e_.comment("group score = m1 + m2, the two largest s' of each group of " + std::to_string(gs) +
               " (m2 = max(m2, min(x, m1)), min(a, b) = -max(-a, -b))");
    e_.li(4, L_.fp_biased);
    e_.li(5, L_.fp_groups);
    e_.loop_start(kL1, L_.n_group);
    e_.op("S_LD_FP f1, gp0, " + std::to_string(L_.fp_neg_inf));
    e_.op("S_LD_FP f2, gp0, " + std::to_string(L_.fp_neg_inf));
    e_.loop_start(kL2, gs);
    e_.op("S_LD_FP f3, gp4, 0");
    e_.op("S_SUB_FP f6, f0, f3");
    e_.op("S_SUB_FP f7, f0, f1");
    e_.op("S_MAX_FP f6, f6, f7");
    e_.op("S_SUB_FP f6, f0, f6");
    e_.op("S_MAX_FP f2, f2, f6");
    e_.op("S_MAX_FP f1, f1, f3");
    e_.addi(4, 4, 1);
    e_.loop_end(kL2);
    e_.op("S_ADD_FP f1, f1, f2");
    e_.op("S_ST_FP f1, gp5, 0");
    e_.addi(5, 5, 1);
    e_.loop_end(kL1);
    e_.comment("keep the top " + std::to_string(L_.topk_group) + " of " +
               std::to_string(L_.n_group) + " groups (V_TOPK, ties to the lower group)");
    e_.li(9, L_.v_groups);
    for (unsigned r = 0; r < L_.group_rows; ++r) {
      e_.op("S_MAP_V_FP gp9, gp0, " + std::to_string(L_.fp_groups + r * vlen_));
      if (r + 1 < L_.group_rows) e_.addi(9, 9, vlen_);
    }
    set_topk_policy(L_.n_group, L_.topk_group);
    e_.li(9, L_.v_groups);
    e_.li(11, L_.fp_group_w);
    e_.li(12, L_.int_groups);
    e_.op("V_TOPK gp11, gp9, gp12, " + std::to_string(spec_.topk_register_policy()->rmask));
    e_.comment("penalty P[g] = -inf, +0 for the kept groups; s' += P[group] (masked: -inf)");
    e_.op("S_LD_FP f3, gp0, " + std::to_string(L_.fp_neg_inf));
    e_.li(4, L_.fp_penalty);
    e_.loop_start(kL1, L_.n_group);
    e_.op("S_ST_FP f3, gp4, 0");
    e_.addi(4, 4, 1);
    e_.loop_end(kL1);
    e_.li(5, L_.int_groups);
    e_.loop_start(kL1, L_.topk_group);
    e_.op("S_LD_INT gp4, gp5, 0");
    e_.op("S_ST_FP f0, gp4, " + std::to_string(L_.fp_penalty));
    e_.addi(5, 5, 1);
    e_.loop_end(kL1);
    e_.li(4, L_.fp_biased);
    e_.li(5, L_.fp_penalty);
    e_.loop_start(kL1, L_.n_group);
    e_.op("S_LD_FP f3, gp5, 0");
    e_.loop_start(kL2, gs);
    e_.op("S_LD_FP f1, gp4, 0");
    e_.op("S_ADD_FP f1, f1, f3");
    e_.op("S_ST_FP f1, gp4, 0");
    e_.addi(4, 4, 1);
    e_.loop_end(kL2);
    e_.addi(5, 5, 1);
    e_.loop_end(kL1);
  }

  /// DeepSeek-V3 route weights of token t from the UNBIASED s of the selected experts:
  /// w_j = bf16(bf16(s_j * r) * rsf), r = RECI(bf16(sum_j s_j (rank order) + bf16(1e-20)))
  /// (norm_topk_prob; else w_j = bf16(s_j * rsf)), written over V_TOPK's weights.
  void emit_sigmoid_weights(unsigned t) {
    const ModelPreset& model = *opt_.model;
    const bool scale = model.routed_scaling_factor != 1.0;
    auto load_s = [&](unsigned j, unsigned fd) {
      e_.op("S_LD_INT gp4, gp0, " + std::to_string(L_.id_word(t * L_.top_k + j)));
      e_.op("S_LD_FP " + fr(fd) + ", gp4, " + std::to_string(L_.fp_logits));
    };
    if (model.norm_topk_prob) {
      e_.comment("w_j = s_j / (sum s + 1e-20)" + std::string(scale ? " * rsf" : "") +
                 ", s unbiased, summed in rank order");
      load_s(0, 3);
      for (unsigned j = 1; j < L_.top_k; ++j) {
        load_s(j, 1);
        e_.op("S_ADD_FP f3, f3, f1");
      }
      e_.op("S_LD_FP f2, gp0, " + std::to_string(L_.fp_eps));
      e_.op("S_ADD_FP f3, f3, f2");
      e_.op("S_RECI_FP f3, f3");
    } else {
      e_.comment(std::string("w_j = s_j") + (scale ? " * rsf" : "") + ", s unbiased");
    }
    if (scale) e_.op("S_LD_FP f4, gp0, " + std::to_string(L_.fp_rsf));
    for (unsigned j = 0; j < L_.top_k; ++j) {
      load_s(j, 1);
      if (model.norm_topk_prob) e_.op("S_MUL_FP f1, f1, f3");
      if (scale) e_.op("S_MUL_FP f1, f1, f4");
      e_.op("S_ST_FP f1, gp0, " + std::to_string(L_.weight_word(t * L_.top_k + j)));
    }
  }

  /// Llama-4: the route weight of each selected expert is sigmoid(l_i) of its logit (written
  /// over V_TOPK's weights); it scales the expert's input.
  void emit_input_scores(unsigned t) {
    e_.comment("score_j = sigmoid(l_id) scales the expert input (written over V_TOPK's weights)");
    for (unsigned j = 0; j < L_.top_k; ++j) {
      e_.op("S_LD_INT gp4, gp0, " + std::to_string(L_.id_word(t * L_.top_k + j)));
      e_.op("S_LD_FP f1, gp4, " + std::to_string(L_.fp_logits));
      emit_scalar_sigmoid(1);
      e_.op("S_ST_FP f1, gp0, " + std::to_string(L_.weight_word(t * L_.top_k + j)));
    }
  }

  /// Zeroes `rows` VRAM rows from row address `base` in groups: for each of `groups` groups,
  /// `rows` rows, then skip `skip` rows.
  void emit_zero_rows(uint64_t base, uint64_t groups, uint64_t rows, uint64_t skip) {
    e_.li(4, base);
    e_.loop_start(kL1, groups);
    e_.loop_start(kL2, rows);
    e_.op("S_MAP_V_FP gp4, gp0, " + std::to_string(L_.fp_zero));
    e_.addi(4, 4, vlen_);
    e_.loop_end(kL2);
    if (skip != 0) e_.addi(4, 4, skip * vlen_);
    e_.loop_end(kL1);
  }

  void emit_accumulator_init() {
    const uint64_t hb = L_.hidden / vlen_, ib = L_.intermediate / vlen_;
    e_.stage("accumulator_init");
    e_.comment("output accumulator (T_pad x H) = +0");
    emit_zero_rows(L_.v_acc, 1, uint64_t{L_.tokens_padded} * hb, 0);
    if (L_.lowering == Lowering::pair) {
      e_.comment(
          "rows 1..BLEN-1 of the input and activation slots = +0 (row 0 is written per pair)");
      emit_zero_rows(L_.v_in + vlen_, hb, blen_ - 1, 1);
      emit_zero_rows(L_.v_act + vlen_, ib, blen_ - 1, 1);
    }
    if (L_.v_ein != 0 && L_.tokens_padded != L_.tokens) {
      e_.comment("padded rows of the scaled input (expert-major, input-scaled routing) = +0");
      emit_zero_rows(L_.v_ein + uint64_t{L_.tokens} * vlen_, hb, L_.tokens_padded - L_.tokens,
                     L_.tokens);
    }
    if (L_.shared_gate) {
      e_.comment("a zero row under the broadcast shared gate");
      emit_zero_rows(L_.v_zero, 1, 1, 0);
    }
    e_.blank();
  }

  void emit_weight_address(unsigned p, uint64_t w_base, uint64_t expert_bytes, uint64_t n,
                           uint64_t k) {
    e_.stage("expert_weight_address");
    e_.op("S_LD_INT gp4, gp0, " + std::to_string(L_.id_word(p)));
    e_.li(5, expert_bytes);
    e_.op("S_MUL_INT gp5, gp4, gp5");
    e_.li(6, w_base);
    e_.op("S_ADD_INT gp6, gp6, gp5");
    e_.op("C_SET_ADDR_REG " + ar(kAExpert) + ", gp0, gp6");
    e_.li(5, n * k);
    e_.op("C_SET_SCALE_REG gp5");
    e_.li(5, k);
    e_.op("C_SET_STRIDE_REG gp5");
  }

  /// out (R rows x N, column-block-major) = in (R rows x K) . W^T, W = N x K MXFP8 at
  /// a[kAExpert], R = BLEN * groups: per MLEN-column output tile, prefetch its K/MLEN tiles
  /// (stage `prefetch_stage`), then per BLEN-row group (unrolled) and BLEN-column group M_MM
  /// over the K tiles in K order and M_MM_WO (stage `mm_stage`).
  void emit_projection(uint64_t n, uint64_t k, uint64_t in_slot, uint64_t out_slot,
                       uint64_t groups = 1,
                       const std::string& prefetch_stage = "expert_weight_prefetch",
                       const std::string& mm_stage = "expert_projection") {
    const uint64_t k_tiles = k / mlen_, rows = blen_ * groups;
    e_.stage(prefetch_stage);
    e_.li(7, 0);
    e_.li(8, out_slot);
    e_.loop_start(kL1, n / mlen_);
    e_.li(9, 0);
    e_.mov(10, 7);
    e_.loop_start(kL2, k_tiles);
    e_.op("H_PREFETCH_M gp9, gp10, " + ar(kAExpert) + ", 1, 0");
    e_.addi(9, 9, mlen_ * mlen_);
    e_.addi(10, 10, mlen_);
    e_.loop_end(kL2);
    e_.stage(mm_stage);
    for (uint64_t g = 0; g < groups; ++g) {
      e_.li(11, 0);
      e_.addi(12, 8, g * blen_ * vlen_);
      e_.loop_start(kL2, mlen_ / blen_);
      e_.mov(13, 11);
      e_.li(14, in_slot + g * blen_ * vlen_);
      e_.loop_start(kL3, k_tiles);
      e_.op("M_MM 0, gp13, gp14");
      e_.addi(13, 13, mlen_ * mlen_);
      e_.addi(14, 14, rows * vlen_);
      e_.loop_end(kL3);
      e_.op("M_MM_WO gp12, gp0, 0");
      e_.addi(11, 11, blen_ * mlen_);
      e_.addi(12, 12, blen_);
      e_.loop_end(kL2);
    }
    e_.addi(7, 7, mlen_ * k);
    e_.addi(8, 8, rows * vlen_);
    e_.loop_end(kL1);
  }

  /// Row 0 of each of `blocks` slot blocks += the expert's bias rows (expert-major in VRAM).
  void emit_expert_bias(unsigned p, uint64_t bias_vram, uint64_t blocks, uint64_t slot) {
    e_.stage("expert_bias");
    e_.op("S_LD_INT gp4, gp0, " + std::to_string(L_.id_word(p)));
    e_.li(5, blocks * vlen_);
    e_.op("S_MUL_INT gp5, gp4, gp5");
    e_.li(6, bias_vram);
    e_.op("S_ADD_INT gp6, gp6, gp5");
    e_.li(7, slot);
    e_.loop_start(kL1, blocks);
    e_.op("V_ADD_VV gp7, gp7, gp6, 0");
    e_.addi(6, 6, vlen_);
    e_.addi(7, 7, blen_ * vlen_);
    e_.loop_end(kL1);
  }

  /// The model's activation on rows [0, active) of every block of a column-block-major
  /// [g, u] matrix with `rows` rows per block (I/VLEN gate blocks, then I/VLEN up blocks) into
  /// the activation matrix (I/VLEN blocks of `rows` rows). Needs the constants loaded by
  /// emit_constants.
  void emit_activation(uint64_t ib, uint64_t rows, uint64_t active, uint64_t h1, uint64_t act,
                       bool clamped) {
    if (clamped)
      e_.comment(
          "g = min(g, limit); u = clamp(u, -limit, limit); h = (u + 1) * (g * sigmoid(alpha g))");
    else
      e_.comment("h = u * (g * sigmoid(g))");
    e_.li(4, h1);
    e_.li(5, h1 + ib * rows * vlen_);
    e_.li(6, act);
    e_.li(7, L_.v_tmp);
    e_.loop_start(kL1, ib);
    e_.loop_start(kL2, active);
    if (clamped) {
      e_.op("V_MIN_VF gp4, gp4, " + fr(kFLimit) + ", 0");
      e_.op("V_MIN_VF gp5, gp5, " + fr(kFLimit) + ", 0");
      e_.op("V_MAX_VF gp5, gp5, " + fr(kFNegLimit) + ", 0");
    }
    e_.op("V_MUL_VF gp7, gp4, " + fr(clamped ? kFNegAlpha : kFNegOne) + ", 0");
    e_.op("V_EXP_V gp7, gp7, 0");
    e_.op("V_ADD_VF gp7, gp7, " + fr(kFOne) + ", 0");
    e_.op("V_RECI_V gp7, gp7, 0");
    e_.op("V_MUL_VV gp7, gp4, gp7, 0");
    if (clamped) e_.op("V_ADD_VF gp5, gp5, " + fr(kFOne) + ", 0");
    e_.op("V_MUL_VV gp6, gp5, gp7, 0");
    e_.addi(4, 4, vlen_);
    e_.addi(5, 5, vlen_);
    e_.addi(6, 6, vlen_);
    e_.loop_end(kL2);
    if (rows != active) {
      e_.addi(4, 4, (rows - active) * vlen_);
      e_.addi(5, 5, (rows - active) * vlen_);
      e_.addi(6, 6, (rows - active) * vlen_);
    }
    e_.loop_end(kL1);
  }

  /// f2..f5, f7: limit, -limit, -alpha, 1, -1 from FP SRAM (once, at the first activation).
  void emit_constants() {
    if (constants_loaded_) return;
    constants_loaded_ = true;
    e_.comment("activation constants: limit, -limit, -alpha, 1, -1");
    e_.op("S_LD_FP " + fr(kFLimit) + ", gp0, " + std::to_string(L_.fp_limit));
    e_.op("S_LD_FP " + fr(kFNegLimit) + ", gp0, " + std::to_string(L_.fp_neg_limit));
    e_.op("S_LD_FP " + fr(kFNegAlpha) + ", gp0, " + std::to_string(L_.fp_neg_alpha));
    e_.op("S_LD_FP " + fr(kFOne) + ", gp0, " + std::to_string(L_.fp_one));
    e_.op("S_LD_FP " + fr(kFNegOne) + ", gp0, " + std::to_string(L_.fp_neg_one));
  }

  void emit_pair(unsigned p) {
    const uint64_t H = L_.hidden, I = L_.intermediate;
    const uint64_t hb = H / vlen_, ib = I / vlen_;
    const unsigned t = p / L_.top_k, j = p % L_.top_k;
    e_.comment("---- pair " + std::to_string(p) + ": token " + std::to_string(t) + ", rank " +
               std::to_string(j));
    e_.pair({static_cast<int32_t>(t), static_cast<int32_t>(j), -1,
             static_cast<int64_t>(L_.id_word(p))});
    e_.stage("gather");
    e_.li(4, L_.int_tokens + p);
    e_.li(5, L_.v_in);
    e_.li(6, L_.v_x);
    e_.loop_start(kL1, hb);
    e_.op("V_GATHER gp5, gp6, gp4");
    e_.addi(5, 5, blen_ * vlen_);
    e_.addi(6, 6, uint64_t{L_.tokens_padded} * vlen_);
    e_.loop_end(kL1);
    const bool input_scaled = scale_input();
    if (input_scaled) {
      e_.stage("expert_route_weight");
      e_.comment("routed input = bf16(score * x) (Llama-4: the score scales the input)");
      emit_scale_rows(L_.weight_word(p), L_.v_in, hb, blen_ * vlen_);
    }

    e_.comment("gate/up projection: [g, u] = W1 x (2I x H)");
    emit_weight_address(p, L_.w1, L_.w1_expert_bytes, 2 * I, H);
    emit_projection(2 * I, H, L_.v_in, L_.v_h1);
    if (L_.b1.rows != 0) emit_expert_bias(p, L_.v_b1, 2 * ib, L_.v_h1);
    e_.stage("expert_activation");
    emit_constants();
    emit_activation(ib, blen_, 1, L_.v_h1, L_.v_act,
                    opt_.model->activation == Activation::clamped_swiglu);

    e_.comment("down projection: e = W2 h (H x I)");
    emit_weight_address(p, L_.w2, L_.w2_expert_bytes, H, I);
    emit_projection(H, I, L_.v_act, L_.v_out);
    if (L_.b2.rows != 0) emit_expert_bias(p, L_.v_b2, hb, L_.v_out);

    if (!input_scaled) {
      e_.stage("expert_route_weight");
      emit_scale_rows(L_.weight_word(p), L_.v_out, hb, blen_ * vlen_);
    }

    e_.stage("scatter_combine");
    e_.li(4, L_.int_tokens + p);
    e_.li(5, L_.v_acc);
    e_.li(6, L_.v_out);
    e_.loop_start(kL1, hb);
    e_.op("V_SCATTER_ADD gp5, gp6, gp4");
    e_.addi(5, 5, uint64_t{L_.tokens_padded} * vlen_);
    e_.addi(6, 6, blen_ * vlen_);
    e_.loop_end(kL1);
    e_.blank();
  }

  /// dst row of each of `blocks` blocks (block stride `stride` elements) = bf16(src row *
  /// FP_SRAM[weight]); src = dst unless given.
  void emit_scale_rows(uint64_t weight, uint64_t dst, uint64_t blocks, uint64_t stride) {
    e_.op("S_LD_FP " + fr(kFRoute) + ", gp0, " + std::to_string(weight));
    e_.li(4, dst);
    e_.loop_start(kL1, blocks);
    e_.op("V_MUL_VF gp4, gp4, " + fr(kFRoute) + ", 0");
    e_.addi(4, 4, stride);
    e_.loop_end(kL1);
  }

  /// C_SET_ADDR_REG a[kAExpert] / SCALE / STRIDE for a static N x K MXFP8 matrix.
  void emit_static_weight_address(const MxMatrix& w) {
    e_.li(6, w.base);
    e_.op("C_SET_ADDR_REG " + ar(kAExpert) + ", gp0, gp6");
    e_.li(5, w.scale_offset);
    e_.op("C_SET_SCALE_REG gp5");
    e_.li(5, w.cols);
    e_.op("C_SET_STRIDE_REG gp5");
  }

  void emit_shared() {
    const uint64_t H = L_.hidden, IS = L_.shared_intermediate;
    const uint64_t hb = H / vlen_, isb = IS / vlen_, tp = L_.tokens_padded;
    const uint64_t groups = tp / blen_;
    e_.pair({});
    e_.comment("---- shared expert (I_s = " + std::to_string(IS) + ") over all " +
               std::to_string(tp) + " rows, " + std::to_string(groups) + " BLEN-row groups");
    e_.stage("shared_expert_projection");
    e_.comment("gate/up projection: [g, u] = W1_s x (2I_s x H)");
    emit_static_weight_address(L_.ws1);
    emit_projection(2 * IS, H, L_.v_x, L_.v_sh1, groups, "shared_expert_projection",
                    "shared_expert_projection");
    e_.stage("shared_expert_activation");
    emit_constants();
    emit_activation(isb, tp, L_.tokens, L_.v_sh1, L_.v_shact, false);
    e_.stage("shared_expert_projection");
    e_.comment("down projection: s = W2_s h (H x I_s)");
    emit_static_weight_address(L_.ws2);
    emit_projection(H, IS, L_.v_shact, L_.v_shout, groups, "shared_expert_projection",
                    "shared_expert_projection");
    if (L_.shared_gate) {
      e_.stage("shared_expert_gate");
      e_.comment(
          "s_t *= sigmoid(w_g . x_t): dot product, sigmoid on the scalar FP unit, broadcast");
      for (unsigned t = 0; t < L_.tokens; ++t) {
        e_.pair({static_cast<int32_t>(t), -1, -1, -1});
        e_.op("S_LD_FP " + fr(kFAcc) + ", gp0, " + std::to_string(L_.fp_zero));
        e_.li(4, L_.v_x + uint64_t{t} * vlen_);
        e_.li(5, L_.v_wg);
        e_.li(6, L_.v_tmp);
        e_.loop_start(kL1, hb);
        e_.op("V_MUL_VV gp6, gp4, gp5, 0");
        e_.op("V_RED_SUM " + fr(kFAcc) + ", gp6, 0");
        e_.addi(4, 4, tp * vlen_);
        e_.addi(5, 5, L_.wg.rows * vlen_);
        e_.loop_end(kL1);
        e_.op("S_SUB_FP " + fr(kFAcc) + ", f0, " + fr(kFAcc));
        e_.op("S_EXP_FP " + fr(kFAcc) + ", " + fr(kFAcc));
        e_.op("S_ADD_FP " + fr(kFAcc) + ", " + fr(kFAcc) + ", " + fr(kFOne));
        e_.op("S_RECI_FP " + fr(kFAcc) + ", " + fr(kFAcc));
        e_.li(7, L_.v_gate);
        e_.li(8, L_.v_zero);
        e_.op("V_ADD_VF gp7, gp8, " + fr(kFAcc) + ", 0");
        e_.li(9, L_.v_shout + uint64_t{t} * vlen_);
        e_.loop_start(kL1, hb);
        e_.op("V_MUL_VV gp9, gp9, gp7, 0");
        e_.addi(9, 9, tp * vlen_);
        e_.loop_end(kL1);
      }
      e_.pair({});
    }
    e_.stage("scatter_combine");
    e_.comment("y_t += s_t (unweighted)");
    emit_add_rows(L_.v_acc, L_.v_shout, hb, true);
    e_.blank();
  }

  /// dst[b][t] += src[b][t] (src_per_row) or src[b] for blocks b < `blocks` and the token rows
  /// t < T; dst (and a per-row src) column-block-major with T_pad rows per block, a per-block
  /// src one row per block.
  void emit_add_rows(uint64_t dst, uint64_t src, uint64_t blocks, bool src_per_row) {
    const uint64_t tp = L_.tokens_padded, skip = tp - L_.tokens;
    e_.li(4, dst);
    e_.li(5, src);
    e_.loop_start(kL1, blocks);
    e_.loop_start(kL2, L_.tokens);
    e_.op("V_ADD_VV gp4, gp4, gp5, 0");
    e_.addi(4, 4, vlen_);
    if (src_per_row) e_.addi(5, 5, vlen_);
    e_.loop_end(kL2);
    if (skip != 0) e_.addi(4, 4, skip * vlen_);
    if (src_per_row && skip != 0) e_.addi(5, 5, skip * vlen_);
    if (!src_per_row) e_.addi(5, 5, vlen_);
    e_.loop_end(kL1);
  }

  /// Expert-major: expert e over all token rows (see Lowering).
  void emit_expert(unsigned e) {
    const uint64_t H = L_.hidden, I = L_.intermediate;
    const uint64_t hb = H / vlen_, ib = I / vlen_, tp = L_.tokens_padded;
    e_.comment("---- expert " + std::to_string(e) + " over all " + std::to_string(tp) + " rows");
    e_.pair({-1, -1, static_cast<int32_t>(e), -1});
    const bool input_scaled = scale_input();
    if (input_scaled) {
      e_.stage("expert_route_weight");
      e_.comment("input row t = bf16(R[t][" + std::to_string(e) +
                 "] * x_t) (Llama-4: the score scales the input; +0 unless t routed to it)");
      emit_route_rows(e, L_.v_x, L_.v_ein);
    }
    e_.stage("expert_weight_address");
    e_.comment("gate/up projection: [g, u] = W1 x (2I x H)");
    emit_static_weight_address(MxMatrix{L_.w1 + e * L_.w1_expert_bytes, 2 * I, H, 2 * I * H, 0});
    emit_projection(2 * I, H, input_scaled ? L_.v_ein : L_.v_x, L_.v_eh1, tp / blen_);
    if (L_.b1.rows != 0) {
      e_.stage("expert_bias");
      emit_add_rows(L_.v_eh1, L_.v_b1 + e * 2 * ib * vlen_, 2 * ib, false);
    }
    e_.stage("expert_activation");
    emit_constants();
    emit_activation(ib, tp, L_.tokens, L_.v_eh1, L_.v_eact,
                    opt_.model->activation == Activation::clamped_swiglu);
    e_.stage("expert_weight_address");
    e_.comment("down projection: e = W2 h (H x I)");
    emit_static_weight_address(MxMatrix{L_.w2 + e * L_.w2_expert_bytes, H, I, H * I, 0});
    emit_projection(H, I, L_.v_eact, L_.v_eout, tp / blen_);
    if (L_.b2.rows != 0) {
      e_.stage("expert_bias");
      emit_add_rows(L_.v_eout, L_.v_b2 + e * hb * vlen_, hb, false);
    }
    if (!input_scaled) {
      e_.stage("expert_route_weight");
      e_.comment("row t *= R[t][" + std::to_string(e) + "] (+0 unless t routed to it)");
      emit_route_rows(e, L_.v_eout, L_.v_eout);
    }
    e_.stage("scatter_combine");
    emit_add_rows(L_.v_acc, L_.v_eout, hb, true);
    e_.pair({});
    e_.blank();
  }

  /// Token rows t < T of the column-block-major T_pad x H matrix `src` times R[t][e] into
  /// `dst` (same layout; dst = src in place).
  void emit_route_rows(unsigned e, uint64_t src, uint64_t dst) {
    const uint64_t hb = L_.hidden / vlen_, tp = L_.tokens_padded;
    const bool in_place = src == dst;
    e_.li(4, L_.fp_dense + e);
    e_.li(5, src);
    if (!in_place) e_.li(7, dst);
    e_.loop_start(kL1, L_.tokens);
    e_.op("S_LD_FP " + fr(kFRoute) + ", gp4, 0");
    e_.mov(6, 5);
    if (!in_place) e_.mov(8, 7);
    e_.loop_start(kL2, hb);
    e_.op("V_MUL_VF " + gp(in_place ? 6 : 8) + ", gp6, " + fr(kFRoute) + ", 0");
    e_.addi(6, 6, tp * vlen_);
    if (!in_place) e_.addi(8, 8, tp * vlen_);
    e_.loop_end(kL2);
    e_.addi(4, 4, L_.experts);
    e_.addi(5, 5, vlen_);
    if (!in_place) e_.addi(7, 7, vlen_);
    e_.loop_end(kL1);
  }

  /// Matrix-unit work per part, from the loop structure emitted above.
  std::vector<Utilisation> utilisation() const {
    const uint64_t H = L_.hidden, I = L_.intermediate, IS = L_.shared_intermediate;
    const uint64_t tile_bytes =
        static_cast<uint64_t>(m_.get("HBM_M_ROWS")) * (mlen_ + mlen_ / mxb_);
    // One projection N x K over `groups` BLEN-row groups.
    auto projection = [&](Utilisation& u, uint64_t n, uint64_t k, uint64_t groups) {
      const uint64_t tiles = (n / mlen_) * (k / mlen_);
      u.weight_tiles += tiles;
      u.mm += tiles * (mlen_ / blen_) * groups;
      u.matrix_instructions +=
          tiles * (mlen_ / blen_) * groups + (n / mlen_) * (mlen_ / blen_) * groups;
    };
    std::vector<Utilisation> out;
    Utilisation r;
    r.part = "routed";
    if (L_.lowering == Lowering::pair) {
      r.lowering = "pair";
      for (unsigned p = 0; p < L_.pairs; ++p) {
        projection(r, 2 * I, H, 1);
        projection(r, H, I, 1);
      }
      r.useful_rows_per_tile = 1.0;  // row 0 of each pair slot holds the token
    } else {
      r.lowering = "expert";
      for (unsigned e = 0; e < L_.experts; ++e) {
        projection(r, 2 * I, H, L_.tokens_padded / blen_);
        projection(r, H, I, L_.tokens_padded / blen_);
      }
      // T*k of the E*T_pad rows an expert sees are routed to it.
      r.useful_rows_per_tile = static_cast<double>(L_.pairs) * static_cast<double>(blen_) /
                               (static_cast<double>(L_.experts) * L_.tokens_padded);
    }
    r.weight_bytes = r.weight_tiles * tile_bytes;
    out.push_back(r);
    if (IS != 0) {
      Utilisation s;
      s.part = "shared";
      s.lowering = "all-tokens";
      projection(s, 2 * IS, H, L_.tokens_padded / blen_);
      projection(s, H, IS, L_.tokens_padded / blen_);
      s.weight_bytes = s.weight_tiles * tile_bytes;
      s.useful_rows_per_tile =
          static_cast<double>(L_.tokens) * static_cast<double>(blen_) / L_.tokens_padded;
      out.push_back(s);
    }
    return out;
  }

  void emit_output_store() {
    e_.pair({});
    e_.stage("non_moe");
    e_.comment("output: accumulator -> HBM MXFP8 (T_pad x H at HBM " + std::to_string(L_.y.base) +
               ")");
    emit_matrix_transfer("H_STORE_V", L_.y, L_.v_acc, kAOut);
  }

  // ---------------------------------------------------------------------------- memory image

  isa::MemoryImage make_image() {
    const ModelPreset& model = *opt_.model;
    const uint64_t H = L_.hidden, I = L_.intermediate, E = L_.experts;
    Generator gen(opt_.seed);
    std::vector<uint8_t> hbm(L_.hbm_input_end, 0);
    // Spreads: X ~ 1; router logits ~ 2; gate/up pre-activations ~ 4 (so the +-7 clamps act);
    // expert outputs ~ 1; biases ~ 0.5.
    const double sd_h = 1.0 / std::sqrt(static_cast<double>(H));
    const double sd_i = 1.0 / std::sqrt(static_cast<double>(I));
    std::vector<Fill> fills;
    fills.push_back({L_.x, L_.tokens * H, 1.0});
    // Sigmoid scores: router logits ~ 1, so sigmoid(l) of the top experts stays below 1.
    const double sd_router = L_.routing == Layout::Routing::softmax ? 2.0 * sd_h : sd_h;
    fills.push_back({L_.wr, E * H, sd_router});
    if (L_.br.rows != 0) fills.push_back({L_.br, E, 0.5});
    if (L_.b1.rows != 0) fills.push_back({L_.b1, E * 2 * I, 0.5});
    if (L_.b2.rows != 0) fills.push_back({L_.b2, E * H, 0.5});
    for (uint64_t e = 0; e < E; ++e) {
      const MxMatrix w{L_.w1 + e * L_.w1_expert_bytes, 2 * I, H, 2 * I * H, 0};
      fills.push_back({w, 2 * I * H, 4.0 * sd_h});
    }
    for (uint64_t e = 0; e < E; ++e) {
      const MxMatrix w{L_.w2 + e * L_.w2_expert_bytes, H, I, H * I, 0};
      fills.push_back({w, H * I, sd_i});
    }
    if (L_.shared_intermediate != 0) {
      // Shared expert like a routed one; gate logits w_g . x ~ 1 so sigmoid stays unsaturated.
      const double sd_s = 1.0 / std::sqrt(static_cast<double>(L_.shared_intermediate));
      fills.push_back({L_.ws1, L_.ws1.rows * H, 4.0 * sd_h});
      fills.push_back({L_.ws2, H * L_.shared_intermediate, sd_s});
      if (L_.shared_gate) fills.push_back({L_.wg, H, sd_h});
    }
    fill_all(hbm, fills, gen, mxb_);

    isa::MemoryImage img;
    img.hbm.push_back({0, std::move(hbm)});

    std::vector<uint8_t> fp(2 * L_.fp_words_used, 0);
    const uint16_t limit = num::f32_to_bf16(static_cast<float>(model.swiglu_limit));
    put_u16(fp, L_.fp_limit, limit);
    put_u16(fp, L_.fp_neg_limit, static_cast<uint16_t>(limit ^ 0x8000));
    put_u16(fp, L_.fp_neg_alpha, static_cast<uint16_t>(L_.alpha_bf16 ^ 0x8000));
    put_u16(fp, L_.fp_one, num::f32_to_bf16(1.0f));
    put_u16(fp, L_.fp_neg_one, num::f32_to_bf16(-1.0f));
    if (L_.routing == Layout::Routing::sigmoid_biased) {
      put_u16(fp, L_.fp_neg_inf, 0xFF80);
      put_u16(fp, L_.fp_eps, num::f32_to_bf16(1e-20f));
      put_u16(fp, L_.fp_rsf, num::f32_to_bf16(static_cast<float>(model.routed_scaling_factor)));
      // e_score_correction_bias: small (sd 0.03, against score gaps of ~0.01 between the top
      // experts), drawn after every other tensor, BF16.
      for (uint64_t e = 0; e < E; ++e)
        put_u16(fp, L_.fp_bias + e, num::f32_to_bf16(static_cast<float>(gen.normal(0.03))));
    }
    img.fp_sram.push_back({0, std::move(fp)});

    std::vector<uint8_t> ints(4 * L_.int_words_used, 0);
    for (unsigned p = 0; p < L_.pairs; ++p) put_u32(ints, L_.int_tokens + p, p / L_.top_k);
    img.int_sram.push_back({0, std::move(ints)});
    return img;
  }

  const isa::Spec& spec_;
  const isa::MachinePreset& m_;
  const BuildOptions& opt_;
  uint64_t vlen_ = 0, mlen_ = 0, blen_ = 0, mxb_ = 0, vrows_ = 0;
  Layout L_;
  Emitter e_;
  bool constants_loaded_ = false;
};

}  // namespace

BuiltProgram build_moe_layer(const isa::Spec& spec, const isa::MachinePreset& preset,
                             const BuildOptions& options) {
  if (options.model == nullptr) throw std::invalid_argument("build_moe_layer: no model");
  BuiltProgram b = LayerBuilder(spec, preset, options).build();
  if (options.fault && *options.fault != ProgramFault::score_scales_output)
    rewrite_with_fault(spec, *options.fault, b);
  return b;
}

}  // namespace moesim::workload
