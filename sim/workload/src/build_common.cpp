// MoE program builder: emitters the parts share (transfers, zeroing, projections, activation,
// row adds).
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "layer_builder.hpp"

namespace moesim::workload::detail {

/// HBM matrix `mm` (rows a multiple of HBM_V_ROWS, cols a multiple of VLEN) to or from VRAM
/// at `vram`, column-block-major; one H_PREFETCH_V/H_STORE_V per HBM_V_ROWS rows of a block.
void LayerBuilder::emit_matrix_transfer(const std::string& mnemonic, const MxMatrix& mm,
                                        uint64_t vram, unsigned areg) {
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

/// The layer's inputs into VRAM (stage residual_setup). With a DMA queue only what token 0's
/// first experts read is loaded here: X, W_r's first row group (HBM_V_ROWS rows of every block;
/// token 0's router loads the others, emit_streamed_logits, when W_r has two or more) and the
/// router bias; the loads of the expert biases and the shared gate weight, which nothing reads
/// before the experts, are deferred: the router's expert loops issue them, one per iteration,
/// under its compute (emit_loop_with_deferred_loads).
void LayerBuilder::emit_input_loads() {
  e_.stage("residual_setup");
  e_.comment("inputs: HBM MXFP8 -> VRAM, column-block-major");
  struct Load {
    const char* what;
    const MxMatrix& mm;
    uint64_t vram;
    bool router_operand;
  };
  const Load loads[] = {{"X", L_.x, L_.v_x, true},
                        {"router weight W_r", L_.wr, L_.v_wr, true},
                        {"router bias", L_.br, L_.v_br, true},
                        {"expert biases b1", L_.b1, L_.v_b1, false},
                        {"expert biases b2", L_.b2, L_.v_b2, false},
                        {"shared gate weight w_g", L_.wg, L_.v_wg, false}};
  const bool defer = m_.get("DMA_QUEUE") > 0;
  stream_wr_ = defer && L_.wr.rows / vrows_ >= 2;
  for (const Load& l : loads) {
    if (l.mm.rows == 0) continue;  // the model has no such tensor
    e_.comment(std::string(l.what) + ": " + std::to_string(l.mm.rows) + " x " +
               std::to_string(l.mm.cols) + " at HBM " + std::to_string(l.mm.base) +
               " -> VRAM row " + std::to_string(l.vram / vlen_) +
               (defer && !l.router_operand ? ", loaded under the router (DMA queue)" : ""));
    if (stream_wr_ && &l.mm == &L_.wr) {
      e_.comment("row group 0 here, the others under token 0's router (DMA queue)");
      emit_transfer_regs(L_.wr);
      e_.li(13, L_.v_wr);
      e_.li(14, 0);
      e_.loop_start(kL1, L_.hidden / vlen_);
      e_.op("H_PREFETCH_V gp13, gp14, " + ar(kAIn) + ", 1, 0");
      e_.addi(13, 13, L_.wr.rows * vlen_);
      e_.addi(14, 14, vlen_);
      e_.loop_end(kL1);
      continue;
    }
    if (defer && !l.router_operand) {
      // emit_matrix_transfer's order: per VLEN block, its HBM_V_ROWS-row groups.
      for (uint64_t b = 0; b < l.mm.cols / vlen_; ++b)
        for (uint64_t r = 0; r < l.mm.rows; r += vrows_)
          deferred_.push_back(
              {&l.mm, l.vram + (b * l.mm.rows + r) * vlen_, r * l.mm.cols + b * vlen_});
      continue;
    }
    emit_matrix_transfer("H_PREFETCH_V", l.mm, l.vram, kAIn);
  }
  e_.blank();
}

/// How many of the first deferred loads (at most `cap`) one loop can issue: the same matrix and
/// block, consecutive row groups (the VRAM address and HBM offset advance by one group each).
size_t LayerBuilder::deferred_run(size_t cap) const {
  const DeferredLoad& first = deferred_.front();
  size_t n = 1;
  while (n < cap && n < deferred_.size() && deferred_[n].mm == first.mm &&
         deferred_[n].vram == first.vram + n * vrows_ * vlen_ &&
         deferred_[n].hbm == first.hbm + n * vrows_ * first.mm->cols)
    ++n;
  return n;
}

/// Stage residual_setup, no work tag: a0 / SCALE / STRIDE for the first deferred load's matrix
/// (when the previous deferred loads' was another), gp13 / gp14 its VRAM address and HBM offset.
void LayerBuilder::emit_deferred_setup(size_t n) {
  const DeferredLoad& first = deferred_.front();
  e_.pair({});
  e_.stage("residual_setup");
  e_.comment("deferred loads: " + std::to_string(n) + " x H_PREFETCH_V from VRAM row " +
             std::to_string(first.vram / vlen_));
  if (deferred_set_ != first.mm) {
    emit_transfer_regs(*first.mm);
    deferred_set_ = first.mm;
  }
  e_.li(13, first.vram);
  e_.li(14, first.hbm);
}

/// a0, SCALE and STRIDE for H_PREFETCH_V of `mm` (through gp13).
void LayerBuilder::emit_transfer_regs(const MxMatrix& mm) {
  e_.li(13, mm.scale_offset);
  e_.op("C_SET_SCALE_REG gp13");
  e_.li(13, mm.cols);
  e_.op("C_SET_STRIDE_REG gp13");
  e_.li(13, mm.base);
  e_.op("C_SET_ADDR_REG " + ar(kAIn) + ", gp0, gp13");
}

/// A loop of `iterations` on kL1 whose body is `body` (which must leave gp13, gp14, a0, SCALE and
/// STRIDE alone and issue no DMA instruction), split so that its first iterations each issue
/// the next deferred load (stage residual_setup) before the body: one loop per run of loads
/// (deferred_run), then one without. A deferred load writes rows that no instruction reads or
/// writes before the experts, so it never stalls the body, and one per iteration keeps the queue
/// from filling while the body takes longer than a transfer. With none deferred (DMA_QUEUE 0)
/// this is the plain loop.
void LayerBuilder::emit_loop_with_deferred_loads(uint64_t iterations,
                                                 const std::function<void()>& body) {
  const std::string stage = e_.current_stage();
  const isa::WorkTag tag = e_.work_tag();
  while (iterations != 0 && !deferred_.empty()) {
    const size_t n = deferred_run(iterations);
    emit_deferred_setup(n);
    e_.pair(tag);
    e_.stage(stage);
    e_.loop_start(kL1, n);
    e_.pair({});
    e_.stage("residual_setup");
    e_.op("H_PREFETCH_V gp13, gp14, " + ar(kAIn) + ", 1, 0");
    e_.addi(13, 13, vrows_ * vlen_);
    e_.addi(14, 14, vrows_ * deferred_.front().mm->cols);
    e_.pair(tag);
    e_.stage(stage);
    body();
    e_.loop_end(kL1);
    deferred_.erase(deferred_.begin(), deferred_.begin() + static_cast<std::ptrdiff_t>(n));
    iterations -= n;
  }
  if (iterations == 0) return;
  e_.loop_start(kL1, iterations);
  body();
  e_.loop_end(kL1);
}

/// With a DMA queue, the first routed projection's prologue (output tile 0 of pair 0's or expert
/// 0's gate/up projection into MRAM tiles [0, H/MLEN), emit_projection_pipelined) issued by the
/// router once every deferred load is issued: after a token's V_TOPK (pair 0's expert id is
/// token 0's), so that the rest of the router and accumulator_init hide it; that projection then
/// has no prologue (prefetched_). Once per layer; not for a rank program (emit_rank_mask rewrites
/// the ids after the router) nor when the projection is not double-buffered. The address code
/// runs again at its usual place (the deferred loads between change SCALE and STRIDE).
void LayerBuilder::emit_first_prologue() {
  const uint64_t H = L_.hidden, I = L_.intermediate;
  if (first_prologue_ || L_.rank_program() || !double_buffered(2 * I, H)) return;
  first_prologue_ = true;
  const isa::WorkTag here = e_.work_tag();
  const std::string stage = e_.current_stage();
  e_.comment("output tile 0 of the first gate/up projection -> MRAM tiles [0, " +
             std::to_string(H / mlen_) + ") (DMA queue: under the router)");
  if (L_.lowering == Lowering::pair) {
    e_.pair(pair_tag(0));
    emit_weight_address(0, L_.w1, L_.w1_expert_bytes, 2 * I, H);
  } else {
    e_.pair({-1, -1, 0, -1});
    e_.stage("expert_weight_address");
    emit_static_weight_address(MxMatrix{L_.w1, 2 * I, H, 2 * I * H, 0});
  }
  deferred_set_ = nullptr;  // SCALE and STRIDE are W1's now
  e_.stage("expert_weight_prefetch");
  e_.li(9, 0);
  e_.li(10, 0);
  e_.loop_start(kL1, H / mlen_);
  e_.op("H_PREFETCH_M gp9, gp10, " + ar(kAExpert) + ", 1, 0");
  e_.addi(9, 9, mlen_ * mlen_);
  e_.addi(10, 10, mlen_);
  e_.loop_end(kL1);
  prefetched_ = 0;
  e_.pair(here);
  e_.stage(stage);
}

/// The deferred loads the router's loops did not issue, back to back (stage residual_setup).
void LayerBuilder::emit_deferred_loads_left() {
  while (!deferred_.empty()) {
    const size_t n = deferred_run(deferred_.size());
    emit_deferred_setup(n);
    e_.loop_start(kL1, n);
    e_.op("H_PREFETCH_V gp13, gp14, " + ar(kAIn) + ", 1, 0");
    e_.addi(13, 13, vrows_ * vlen_);
    e_.addi(14, 14, vrows_ * deferred_.front().mm->cols);
    e_.loop_end(kL1);
    deferred_.erase(deferred_.begin(), deferred_.begin() + static_cast<std::ptrdiff_t>(n));
  }
}

/// f[fd] = sigmoid(f[fd]) on the scalar FP unit: 1 / (1 + e^(0 - x)), each step BF16 (f5 = 1).
void LayerBuilder::emit_scalar_sigmoid(unsigned fd) {
  e_.op("S_SUB_FP " + fr(fd) + ", f0, " + fr(fd));
  e_.op("S_EXP_FP " + fr(fd) + ", " + fr(fd));
  e_.op("S_ADD_FP " + fr(fd) + ", " + fr(fd) + ", " + fr(kFOne));
  e_.op("S_RECI_FP " + fr(fd) + ", " + fr(fd));
}

/// Zeroes `rows` VRAM rows from row address `base` in groups: for each of `groups` groups,
/// `rows` rows, then skip `skip` rows.
void LayerBuilder::emit_zero_rows(uint64_t base, uint64_t groups, uint64_t rows, uint64_t skip) {
  e_.li(4, base);
  e_.loop_start(kL1, groups);
  e_.loop_start(kL2, rows);
  e_.op("S_MAP_V_FP gp4, gp0, " + std::to_string(L_.fp_zero));
  e_.addi(4, 4, vlen_);
  e_.loop_end(kL2);
  if (skip != 0) e_.addi(4, 4, skip * vlen_);
  e_.loop_end(kL1);
}

void LayerBuilder::emit_accumulator_init() {
  const uint64_t hb = L_.hidden / vlen_, ib = L_.intermediate / vlen_;
  e_.stage("accumulator_init");
  e_.comment("output accumulator (T_pad x H) = +0");
  emit_zero_rows(L_.v_acc, 1, uint64_t{L_.tokens_padded} * hb, 0);
  if (L_.lowering == Lowering::pair) {
    e_.comment("rows 1..BLEN-1 of the input and activation slots = +0 (row 0 is written per pair)");
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

/// out (R rows x N, column-block-major) = in (R rows x K) . W^T, W = N x K MXFP8 at
/// a[kAExpert], R = BLEN * groups: per MLEN-column output tile, prefetch its K/MLEN tiles
/// (stage `prefetch_stage`), then per BLEN-row group (unrolled) and BLEN-column group M_MM
/// over the K tiles in K order and M_MM_WO (stage `mm_stage`).
void LayerBuilder::emit_projection(uint64_t n, uint64_t k, uint64_t in_slot, uint64_t out_slot,
                                   uint64_t groups, const std::string& prefetch_stage,
                                   const std::string& mm_stage) {
  if (double_buffered(n, k)) {
    emit_projection_pipelined(n, k, in_slot, out_slot, groups, prefetch_stage, mm_stage);
    return;
  }
  if (prefetched_) throw std::logic_error("emit_projection: tiles prefetched for a serial one");
  next_ = NextProjection{};
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

/// Whether emit_projection double-buffers the weight tiles (docs/workloads.md, Programs that use
/// the queue): only on a machine with a DMA queue (DMA_QUEUE > 0; without one a prefetch occupies
/// the core for its whole latency and there is nothing to overlap), with at least two output
/// tiles (the next tile is what gets prefetched), two buffers of K/MLEN tiles in MRAM_TILES, at
/// most MLEN/BLEN tiles (one prefetch per chunk of column groups) and the four nested loops the
/// pipelined schedule needs. Otherwise the serial schedule: for example full-size Qwen3-30B-A3B's
/// gate/up projection on `bench` (K = 2048: 32 tiles, MRAM_TILES = 32, no room for a second
/// buffer).
bool LayerBuilder::double_buffered(uint64_t n, uint64_t k) const {
  const uint64_t k_tiles = k / mlen_;
  return m_.get("DMA_QUEUE") > 0 && n / mlen_ >= 2 &&
         2 * k_tiles <= static_cast<uint64_t>(m_.get("MRAM_TILES")) && k_tiles <= mlen_ / blen_ &&
         m_.get("LOOP_DEPTH") >= 4;
}

/// emit_projection with a DMA queue, software-pipelined over two MRAM buffers of K/MLEN tiles
/// (tiles [0, K/MLEN) and [K/MLEN, 2K/MLEN)): a prologue prefetches output tile 0 into one; then,
/// while output tile j is multiplied from one buffer, the K/MLEN tiles of output tile j+1 are
/// prefetched into the other, one H_PREFETCH_M at the start of each of K/MLEN chunks of the
/// first row group's column groups (MLEN/BLEN / (K/MLEN) column groups a chunk, the remainder in
/// a last loop without a prefetch), so each prefetch has a chunk of multiplies to hide under and
/// the queue rarely fills. The last output tile prefetches, the same way, output tile 0 of the
/// next projection (next_, set by the caller) into whichever of that projection's buffers does
/// not meet this one's last, and that projection then has no prologue (prefetched_); when
/// neither buffer is free, or the next projection is not double-buffered, it prefetches nothing.
/// An M_MM of a tile that has not arrived stalls on the scoreboard (docs/overlap.md section 3);
/// the prefetches into a buffer come after every M_MM that read it (program order), so values
/// are the serial schedule's. Registers: gp5 / gp6 the MRAM address of the buffer being
/// multiplied / prefetched, gp7 the HBM offset of the next output tile, gp9 / gp10 of the next
/// prefetch; gp4 the fourth loop counter (kL4); the next projection's address code may use
/// gp4..gp6 (the last tile's buffer address is a constant).
void LayerBuilder::emit_projection_pipelined(uint64_t n, uint64_t k, uint64_t in_slot,
                                             uint64_t out_slot, uint64_t groups,
                                             const std::string& prefetch_stage,
                                             const std::string& mm_stage) {
  const uint64_t k_tiles = k / mlen_, rows = blen_ * groups, col_groups = mlen_ / blen_;
  const uint64_t tile = mlen_ * mlen_, out_tiles = n / mlen_;
  const std::optional<uint64_t> first = std::exchange(prefetched_, std::nullopt);
  const NextProjection next = std::exchange(next_, NextProjection{});
  // First tiles of the buffers of output tile 0 and 1 (then alternating), and of the last.
  const uint64_t buf0 = first.value_or(0), buf1 = buf0 == 0 ? k_tiles : 0;
  const uint64_t last = (out_tiles - 1) % 2 == 0 ? buf0 : buf1;
  // The next projection's output tile 0: into its buffer [0, K') or [K', 2K'), whichever does
  // not meet [last, last + K).
  std::optional<uint64_t> next_buf;
  if (next.address && double_buffered(next.n, next.k)) {
    const uint64_t nk = next.k / mlen_;
    if (last >= nk)
      next_buf = 0;
    else if (nk >= last + k_tiles || 2 * nk <= last)
      next_buf = nk;
  }
  // One prefetch of `stage` (its work tag `tag`) from gp10 into gp9; both advance one tile.
  auto prefetch = [&](const std::string& stage, const isa::WorkTag& tag) {
    const isa::WorkTag here = e_.work_tag();
    e_.pair(tag);
    e_.stage(stage);
    e_.op("H_PREFETCH_M gp9, gp10, " + ar(kAExpert) + ", 1, 0");
    e_.addi(9, 9, tile);
    e_.addi(10, 10, mlen_);
    e_.pair(here);
  };
  // BLEN output columns of row group g over the K tiles, loop counter kL4.
  auto column_group = [&](uint64_t g) {
    e_.mov(13, 11);
    e_.li(14, in_slot + g * blen_ * vlen_);
    e_.loop_start(kL4, k_tiles);
    e_.op("M_MM 0, gp13, gp14");
    e_.addi(13, 13, tile);
    e_.addi(14, 14, rows * vlen_);
    e_.loop_end(kL4);
    e_.op("M_MM_WO gp12, gp0, 0");
    e_.addi(11, 11, blen_ * mlen_);
    e_.addi(12, 12, blen_);
  };
  // One output tile from the buffer at gp11's start (`base`: a constant, else gp5), with
  // `prefetches` prefetches (0, or at most MLEN/BLEN) spread over row group 0.
  auto multiply = [&](std::optional<uint64_t> base, uint64_t prefetches, const std::string& stage,
                      const isa::WorkTag& tag) {
    for (uint64_t g = 0; g < groups; ++g) {
      e_.stage(mm_stage);
      if (base)
        e_.li(11, *base * tile);
      else
        e_.mov(11, 5);
      e_.addi(12, 8, g * blen_ * vlen_);
      if (g == 0 && prefetches != 0) {
        e_.loop_start(kL2, prefetches);
        prefetch(stage, tag);
        e_.stage(mm_stage);
        e_.loop_start(kL3, col_groups / prefetches);
        column_group(g);
        e_.loop_end(kL3);
        e_.loop_end(kL2);
        if (col_groups % prefetches == 0) continue;
        e_.loop_start(kL3, col_groups % prefetches);
      } else {
        e_.loop_start(kL3, col_groups);
      }
      column_group(g);
      e_.loop_end(kL3);
    }
    e_.addi(8, 8, rows * vlen_);
  };
  e_.comment("double-buffered weight tiles (DMA_QUEUE " + std::to_string(m_.get("DMA_QUEUE")) +
             "): MRAM tiles [0, " + std::to_string(k_tiles) + ") and [" + std::to_string(k_tiles) +
             ", " + std::to_string(2 * k_tiles) + ")" +
             (first ? ", output tile 0 prefetched under the previous projection" : ""));
  const isa::WorkTag tag = e_.work_tag();
  if (!first) {
    e_.stage(prefetch_stage);
    e_.li(9, 0);
    e_.li(10, 0);
    e_.loop_start(kL2, k_tiles);
    prefetch(prefetch_stage, tag);
    e_.loop_end(kL2);
  }
  e_.li(5, buf0 * tile);
  e_.li(6, buf1 * tile);
  e_.li(7, mlen_ * k);
  e_.li(8, out_slot);
  e_.loop_start(kL1, out_tiles - 1);
  e_.stage(prefetch_stage);
  e_.mov(9, 6);
  e_.mov(10, 7);
  multiply(std::nullopt, k_tiles, prefetch_stage, tag);
  e_.stage(prefetch_stage);
  e_.mov(9, 5);
  e_.mov(5, 6);
  e_.mov(6, 9);
  e_.addi(7, 7, mlen_ * k);
  e_.loop_end(kL1);
  if (!next_buf) {
    multiply(last, 0, prefetch_stage, tag);
    return;
  }
  e_.comment("output tile 0 of the next projection -> MRAM tiles [" + std::to_string(*next_buf) +
             ", " + std::to_string(*next_buf + next.k / mlen_) + ")");
  e_.pair(next.tag);
  next.address();
  e_.stage(next.prefetch_stage);
  e_.li(9, *next_buf * tile);
  e_.li(10, 0);
  e_.pair(tag);
  multiply(last, next.k / mlen_, next.prefetch_stage, next.tag);
  prefetched_ = next_buf;
}

/// An activation (presets.hpp, Activation) on rows [0, active) of every block of a
/// column-block-major [g, u] matrix with `rows` rows per block (I/VLEN gate blocks, then I/VLEN
/// up blocks) into the activation matrix (I/VLEN blocks of `rows` rows). Needs the constants
/// loaded by emit_constants.
void LayerBuilder::emit_activation(uint64_t ib, uint64_t rows, uint64_t active, uint64_t h1,
                                   uint64_t act, Activation kind) {
  const bool clamp = kind != Activation::swiglu, gpt_oss = kind == Activation::clamped_swiglu;
  if (gpt_oss)
    e_.comment(
        "g = min(g, limit); u = clamp(u, -limit, limit); h = (u + 1) * (g * sigmoid(alpha g))");
  else if (clamp)
    e_.comment("g = min(g, limit); u = clamp(u, -limit, limit); h = u * (g * sigmoid(g))");
  else
    e_.comment("h = u * (g * sigmoid(g))");
  e_.li(4, h1);
  e_.li(5, h1 + ib * rows * vlen_);
  e_.li(6, act);
  e_.li(7, L_.v_tmp);
  e_.loop_start(kL1, ib);
  e_.loop_start(kL2, active);
  if (clamp) {
    e_.op("V_MIN_VF gp4, gp4, " + fr(kFLimit) + ", 0");
    e_.op("V_MIN_VF gp5, gp5, " + fr(kFLimit) + ", 0");
    e_.op("V_MAX_VF gp5, gp5, " + fr(kFNegLimit) + ", 0");
  }
  e_.op("V_MUL_VF gp7, gp4, " + fr(gpt_oss ? kFNegAlpha : kFNegOne) + ", 0");
  e_.op("V_EXP_V gp7, gp7, 0");
  e_.op("V_ADD_VF gp7, gp7, " + fr(kFOne) + ", 0");
  e_.op("V_RECI_V gp7, gp7, 0");
  e_.op("V_MUL_VV gp7, gp4, gp7, 0");
  if (gpt_oss) e_.op("V_ADD_VF gp5, gp5, " + fr(kFOne) + ", 0");
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
void LayerBuilder::emit_constants() {
  if (constants_loaded_) return;
  constants_loaded_ = true;
  e_.comment("activation constants: limit, -limit, -alpha, 1, -1");
  e_.op("S_LD_FP " + fr(kFLimit) + ", gp0, " + std::to_string(L_.fp_limit));
  e_.op("S_LD_FP " + fr(kFNegLimit) + ", gp0, " + std::to_string(L_.fp_neg_limit));
  e_.op("S_LD_FP " + fr(kFNegAlpha) + ", gp0, " + std::to_string(L_.fp_neg_alpha));
  e_.op("S_LD_FP " + fr(kFOne) + ", gp0, " + std::to_string(L_.fp_one));
  e_.op("S_LD_FP " + fr(kFNegOne) + ", gp0, " + std::to_string(L_.fp_neg_one));
}

/// C_SET_ADDR_REG a[kAExpert] / SCALE / STRIDE for a static N x K MXFP8 matrix.
void LayerBuilder::emit_static_weight_address(const MxMatrix& w) {
  e_.li(6, w.base);
  e_.op("C_SET_ADDR_REG " + ar(kAExpert) + ", gp0, gp6");
  e_.li(5, w.scale_offset);
  e_.op("C_SET_SCALE_REG gp5");
  e_.li(5, w.cols);
  e_.op("C_SET_STRIDE_REG gp5");
}

/// dst[b][t] += src[b][t] (src_per_row) or src[b] for blocks b < `blocks` and the token rows
/// t < T; dst (and a per-row src) column-block-major with T_pad rows per block, a per-block
/// src one row per block.
void LayerBuilder::emit_add_rows(uint64_t dst, uint64_t src, uint64_t blocks, bool src_per_row) {
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

void LayerBuilder::emit_output_store() {
  e_.pair({});
  e_.stage("non_moe");
  e_.comment("output: accumulator -> HBM MXFP8 (T_pad x H at HBM " + std::to_string(L_.y.base) +
             ")");
  emit_matrix_transfer("H_STORE_V", L_.y, L_.v_acc, kAOut);
}

}  // namespace moesim::workload::detail
