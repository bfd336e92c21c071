// The DMA queue (docs/overlap.md): issue, hazards, the FIFO engine, program end, traps and the
// order of retire and transfer records, on copies of the tiny preset with DMA_QUEUE set here
// (whatever machine.yaml gives tiny).
//
// Every expected cycle is derived by hand from docs/overlap.md and the isa.yaml latencies of the
// tiny preset (MLEN = VLEN = 16, BLEN 4, MX_BLOCK 8, HBM_LATENCY 8, HBM_BYTES_PER_CYCLE 16,
// HBM_V_ROWS 4, HBM_M_ROWS 16):
//   H_PREFETCH_M: 8 + 16 * (ceil(16/16) + ceil(2/16)) = 8 + 16 * 2 = 40
//   H_PREFETCH_V: 8 +  4 * (1 + 1)                    = 16
//   H_STORE_V:    8 + 1 + 4 * (1 + 1)                 = 17
//   S_ADDI_INT, C_SET_SCALE_REG 1; V_ADD_VV 2; M_MM BLEN + MLEN/MX_BLOCK + 1 = 4 + 2 + 1 = 7.
// (latencies_of_the_tiny_preset checks these numbers against isa.yaml.)
//
// The scenarios whose totals and final memories say everything (WAR, WAW, full queues of depth 1
// and 2, back-to-back transfers, the drain at program end, a trap that does not stall) are ISA
// conformance cases now, run on both engines (testbenches/conformance/H_*/dma_*,
// docs/conformance.md, DMA queue cases); what stays here is what only the records show: their
// order, ready and stall fields per record, transfer records with their HBM bytes, checkpoints.
#include <algorithm>

#include "golden_test_util.hpp"

using namespace gt;
using isa::RecordKind;
using isa::StallCause;

namespace {

constexpr uint64_t kPrefetchM = 40, kPrefetchV = 16, kStoreV = 17, kMm = 7;

/// The tiny preset with a DMA queue of depth q.
isa::MachinePreset queued(int64_t q) {
  isa::MachinePreset p = tiny();
  p.params.at("DMA_QUEUE") = q;
  return p;
}

/// What a test expects of one record.
struct Want {
  RecordKind kind;
  uint32_t pc;
  uint64_t ready, start, end;
  StallCause cause = StallCause::None;
};

Want retire(uint32_t pc, uint64_t ready, uint64_t start, uint64_t end,
            StallCause cause = StallCause::None) {
  return {RecordKind::Retire, pc, ready, start, end, cause};
}
Want transfer(uint32_t pc, uint64_t start, uint64_t end) {
  return {RecordKind::Transfer, pc, start, start, end};
}

/// The records are `want`, in this order, with stall_cycles = start - ready.
void check_records(const Bench& b, const std::vector<Want>& want) {
  BOOST_TEST_REQUIRE(b.recs.size() == want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    const isa::RetireRecord& r = b.recs[i];
    const Want& w = want[i];
    BOOST_TEST_CONTEXT("record " << i << " pc " << r.pc) {
      BOOST_TEST(isa::record_kind_name(r.kind) == isa::record_kind_name(w.kind));
      BOOST_TEST(r.pc == w.pc);
      BOOST_TEST(r.ready_cycle == w.ready);
      BOOST_TEST(r.start_cycle == w.start);
      BOOST_TEST(r.end_cycle == w.end);
      BOOST_TEST(r.stall_cycles == w.start - w.ready);
      BOOST_TEST(isa::stall_cause_name(r.stall_cause) == isa::stall_cause_name(w.cause));
    }
  }
}

/// HBM holding MX rows of 1.0 from byte 0 (codes 0x38 = 1.0 in E4M3) with their scales 127
/// (2^0) at SCALE = 4096: what the prefetches below read.
void ones_in_hbm(Bench& b) {
  b.hbm_bytes(0, std::vector<uint8_t>(1024, 0x38));
  b.hbm_bytes(4096, std::vector<uint8_t>(128, 127));
}

}  // namespace

BOOST_AUTO_TEST_CASE(overlap_latencies_of_the_tiny_preset) {
  Bench b;
  BOOST_TEST(b.lat("H_PREFETCH_M", {{"rows", 16}, {"len", 16}}) == int64_t{kPrefetchM});
  BOOST_TEST(b.lat("H_PREFETCH_V", {{"rows", 4}, {"len", 16}}) == int64_t{kPrefetchV});
  BOOST_TEST(b.lat("H_STORE_V", {{"rows", 4}, {"len", 16}}) == int64_t{kStoreV});
  BOOST_TEST(b.lat("M_MM") == int64_t{kMm});
  BOOST_TEST(b.lat("S_ADDI_INT") == 1);
  BOOST_TEST(b.lat("V_ADD_VV") == 2);
}

// The program of the RAW case with no queue: today's serial timeline, no transfer records, no
// stalls. 1 + 40 + 1 + 7 = 49 cycles.
BOOST_AUTO_TEST_CASE(overlap_queue_0_is_the_serial_machine) {
  Bench b(queued(0));
  b.run(R"(
    S_ADDI_INT gp1, gp0, 256
    H_PREFETCH_M gp1, gp0, a0, 0, 0
    S_ADDI_INT gp2, gp0, 0
    M_MM 0, gp1, gp2
  )");
  b.check_timeline({1, kPrefetchM, 1, kMm});
  for (const isa::RetireRecord& r : b.recs) {
    BOOST_TEST(isa::record_kind_name(r.kind) == std::string("retire"));
    BOOST_TEST(r.ready_cycle == r.start_cycle);
    BOOST_TEST(r.stall_cycles == 0u);
  }
  BOOST_TEST(b.recs[1].mems == (std::vector<MemWrite>{{Space::Mram, 16, 32, 0}}),
             boost::test_tools::per_element());
  BOOST_TEST(b.recs[1].hbm_read == 16u * (16 + 2));  // serial: the DMA instruction's bytes
  BOOST_TEST(b.model.cycles() == 49u);
}

// RAW on a tile being prefetched (Q = 2). H_PREFETCH_M of MRAM rows [16, 32) (tile 1) issues in
// cycle 1 and occupies the core for [1, 2); its transfer runs [1, 41). The independent S_ADDI_INT
// runs [2, 3). M_MM reads MRAM rows [16, 20): ready in 3, it stalls (RAW) until the transfer
// completes in 41 (stall 38) and runs [41, 48). The transfer record (end 41) comes before the
// M_MM retire (end 48). Total 48 (serial: 49).
BOOST_AUTO_TEST_CASE(overlap_raw_on_a_tile_being_prefetched) {
  Bench b(queued(2));
  b.run(R"(
    S_ADDI_INT gp1, gp0, 256
    H_PREFETCH_M gp1, gp0, a0, 0, 0
    S_ADDI_INT gp2, gp0, 0
    M_MM 0, gp1, gp2
  )");
  check_records(b, {retire(0, 0, 0, 1), retire(1, 1, 1, 2), retire(2, 2, 2, 3),
                    transfer(1, 1, 1 + kPrefetchM), retire(3, 3, 41, 48, StallCause::Raw)});
  BOOST_TEST(b.recs[1].mems.empty());  // the DMA instruction's retire writes nothing
  BOOST_TEST(b.recs[3].index == 1u);   // the transfer carries its instruction's retire index
  // The HBM bytes are the transfer's: 16 rows of 16 codes and 16 / 8 = 2 scales, 288 bytes read.
  for (size_t i : {0, 1, 2, 4}) BOOST_TEST(b.recs[i].hbm_read + b.recs[i].hbm_written == 0u);
  BOOST_TEST(b.recs[3].hbm_read == 16u * (16 + 2));
  BOOST_TEST(b.recs[3].hbm_written == 0u);
  BOOST_TEST(b.recs[3].mems == (std::vector<MemWrite>{{Space::Mram, 16, 32, 0}}),
             boost::test_tools::per_element());
  BOOST_TEST(b.model.cycles() == 48u);
  BOOST_TEST(b.model.retired() == 4u);
}

// A prefetch followed by an instruction that uses it costs exactly the serial cycles: issue in
// 1, transfer [1, 41), the M_MM (ready in 2) stalls L - 1 = 39 cycles and runs [41, 48).
// Serial: 1 + 40 + 7 = 48.
BOOST_AUTO_TEST_CASE(overlap_dependent_prefetch_then_use_costs_the_serial_cycles) {
  Bench b(queued(3));
  b.run(R"(
    S_ADDI_INT gp1, gp0, 256
    H_PREFETCH_M gp1, gp0, a0, 0, 0
    M_MM 0, gp1, gp0
  )");
  check_records(b, {retire(0, 0, 0, 1), retire(1, 1, 1, 2), transfer(1, 1, 41),
                    retire(2, 2, 41, 48, StallCause::Raw)});
  BOOST_TEST(b.recs[3].stall_cycles == kPrefetchM - 1);
  BOOST_TEST(b.model.cycles() == 1 + kPrefetchM + kMm);
}

// WAR on a VRAM row being stored (Q = 2). SCALE = 1024 in [0, 2); gp1 = 32 (VRAM row 2) in
// [2, 3); H_STORE_V of rows [2, 6) issues in 3, [3, 4), its transfer runs [3, 20). gp2 = 64 (row
// 4) in [4, 5), gp3 = 160 (row 10) in [5, 6). V_ADD_VV row 10 = row 2 + row 2 only reads rows
// being stored: no hazard, [6, 8). V_ADD_VV writing row 4: ready in 8, WAR with the store until
// 20 (stall 12), [20, 22). Total 22. The store reads row 4 before that write: the scale bytes of
// its rows (HBM SCALE + 2i, 2 per row: [1024, 1032)) are those of 1.0 (119: amax 1.0, e = 0 - 8),
// not of 2.0 (120).
BOOST_AUTO_TEST_CASE(overlap_war_on_a_vram_row_being_stored) {
  Bench b(queued(2));
  for (uint64_t row : {0, 2, 3, 4, 5}) b.vram_row(row, fill(16, bf(1.0f)));
  b.run(R"(
    S_ADDI_INT gp4, gp0, 1024
    C_SET_SCALE_REG gp4
    S_ADDI_INT gp1, gp0, 32
    H_STORE_V gp1, gp0, a0, 0, 0
    S_ADDI_INT gp2, gp0, 64
    S_ADDI_INT gp3, gp0, 160
    V_ADD_VV gp3, gp1, gp1
    V_ADD_VV gp2, gp0, gp0
  )");
  check_records(b, {retire(0, 0, 0, 1), retire(1, 1, 1, 2), retire(2, 2, 2, 3), retire(3, 3, 3, 4),
                    retire(4, 4, 4, 5), retire(5, 5, 5, 6), retire(6, 6, 6, 8),
                    transfer(3, 3, 3 + kStoreV), retire(7, 8, 20, 22, StallCause::War)});
  BOOST_TEST(b.recs[7].mems.size() == 2u);             // HBM codes and scales
  BOOST_TEST(b.recs[7].hbm_written == 4u * (16 + 2));  // 4 rows of 16 codes and 2 scales
  BOOST_TEST(b.recs[7].hbm_read == 0u);
  BOOST_TEST(b.recs[3].hbm_written == 0u);  // its DMA instruction's retire
  const std::vector<uint8_t> scales = b.model.read(Space::Hbm, 1024, 8);
  BOOST_TEST(scales == std::vector<uint8_t>(8, 119), boost::test_tools::per_element());
  BOOST_TEST(b.row(4) == fill(16, bf(2.0f)), boost::test_tools::per_element());
  BOOST_TEST(b.model.cycles() == 22u);
}

// The stall cause is the conflict with the youngest conflicting transfer (Q = 2). gp1 = 128 (row
// 8) in [0, 1); H_STORE_V of rows [0, 4) issues in 1, transfer [1, 18); H_PREFETCH_V of rows
// [8, 12) issues in 2, transfer [18, 34). V_ADD_VV writes row 0 (WAR with the store) from row 8
// (RAW with the prefetch): ready in 3, it waits for the younger, the prefetch, until 34 (stall
// 31): cause raw, [34, 36). Total 36.
BOOST_AUTO_TEST_CASE(overlap_stall_cause_is_that_of_the_youngest_conflicting_transfer) {
  Bench b(queued(2));
  b.run(R"(
    S_ADDI_INT gp1, gp0, 128
    H_STORE_V gp0, gp0, a0, 0, 0
    H_PREFETCH_V gp1, gp0, a0, 0, 0
    V_ADD_VV gp0, gp1, gp1
  )");
  check_records(
      b, {retire(0, 0, 0, 1), retire(1, 1, 1, 2), retire(2, 2, 2, 3), transfer(1, 1, 1 + kStoreV),
          transfer(2, 18, 18 + kPrefetchV), retire(3, 3, 34, 36, StallCause::Raw)});
  BOOST_TEST(b.model.cycles() == 36u);
}

// An instruction that reads and writes rows one transfer writes: raw before waw (Q = 1). gp1 =
// 64 (row 4), gp2 = 80 (row 5) in [0, 2); H_PREFETCH_V of rows [4, 8) issues in 2, transfer
// [2, 18); V_ADD_VV writes row 4 from rows 5 and 0: ready in 3, stall 15, cause raw, [18, 20).
BOOST_AUTO_TEST_CASE(overlap_raw_before_waw_for_one_transfer) {
  Bench b(queued(1));
  b.run(R"(
    S_ADDI_INT gp1, gp0, 64
    S_ADDI_INT gp2, gp0, 80
    H_PREFETCH_V gp1, gp0, a0, 0, 0
    V_ADD_VV gp1, gp2, gp0
  )");
  check_records(b, {retire(0, 0, 0, 1), retire(1, 1, 1, 2), retire(2, 2, 2, 3),
                    transfer(2, 2, 2 + kPrefetchV), retire(3, 3, 18, 20, StallCause::Raw)});
}

// A trap while a transfer is pending (Q = 2): SCALE = 4096 and gp1 = 64 in [0, 3); H_PREFETCH_V
// of rows [4, 8) issues in 3, transfer [3, 19); C_LOOP_END with no loop traps in its ready cycle
// 4 (record [4, 4)). The transfer still completes: its record follows the trap's, the rows hold
// its 1.0 values, and cycles() = max(4, 19) = 19.
BOOST_AUTO_TEST_CASE(overlap_trap_while_a_transfer_is_pending) {
  Bench b(queued(2));
  ones_in_hbm(b);
  b.run(R"(
    S_ADDI_INT gp5, gp0, 4096
    C_SET_SCALE_REG gp5
    S_ADDI_INT gp1, gp0, 64
    H_PREFETCH_V gp1, gp0, a0, 0, 0
    C_LOOP_END gp2
  )");
  check_records(b, {retire(0, 0, 0, 1), retire(1, 1, 1, 2), retire(2, 2, 2, 3), retire(3, 3, 3, 4),
                    retire(4, 4, 4, 4), transfer(3, 3, 3 + kPrefetchV)});
  BOOST_TEST_REQUIRE(b.recs[4].trap.has_value());
  BOOST_TEST(int(b.recs[4].trap->cause) == int(trap("loop_underflow")));
  BOOST_TEST(b.row(4) == fill(16, bf(1.0f)), boost::test_tools::per_element());
  BOOST_TEST(b.model.halted());
  BOOST_TEST(b.model.cycles() == 3 + kPrefetchV);
  BOOST_TEST(b.model.retired() == 4u);
}

// At equal end cycles a transfer record comes before a retire record (Q = 1): H_PREFETCH_V of
// rows [0, 4) issues in 0, transfer [0, 16); fifteen S_ADDI_INT run [1, 2) .. [15, 16), the last
// one ending in 16 with the transfer: the transfer's record is returned first.
BOOST_AUTO_TEST_CASE(overlap_transfer_before_retire_at_equal_end_cycles) {
  Bench b(queued(1));
  std::string program = "H_PREFETCH_V gp0, gp0, a0, 0, 0\n";
  for (int i = 0; i < 15; ++i) program += "S_ADDI_INT gp1, gp1, 1\n";
  b.run(program);
  std::vector<Want> want{retire(0, 0, 0, 1)};
  for (uint32_t pc = 1; pc < 15; ++pc) want.push_back(retire(pc, pc, pc, pc + 1));
  want.push_back(transfer(0, 0, kPrefetchV));
  want.push_back(retire(15, 15, 15, 16));
  check_records(b, want);
  BOOST_TEST(b.model.cycles() == 16u);
}

// Checkpoints are taken only with no pending transfer (docs/overlap.md section 8): after the
// H_PREFETCH_M retires (cycle 1) its transfer runs until 40 and save() refuses; once the queue
// has drained save() works and holds cycle 40 and the prefetched rows.
BOOST_AUTO_TEST_CASE(overlap_no_checkpoint_while_a_transfer_is_pending) {
  Bench b(queued(2));
  ones_in_hbm(b);
  b.model.load(isa::assemble(spec(), "H_PREFETCH_M gp0, gp0, a0, 0, 0\n", "t.asm"), b.image);
  isa::RetireRecord r;
  BOOST_TEST_REQUIRE(b.model.step(r));
  BOOST_CHECK_THROW(b.model.save(), std::logic_error);
  BOOST_TEST_REQUIRE(b.model.step(r));  // the transfer
  BOOST_TEST(!b.model.step(r));
  const isa::ArchState s = b.model.save();
  BOOST_TEST(s.cycle == kPrefetchM);
  BOOST_TEST(s.retired == 1u);
}

// Unit busy spans with a queue (docs/overlap.md section 10), per record, on the RAW program (Q =
// 2): S_ADDI_INT scalar [0, 1); the H_PREFETCH_M's issue cycle [1, 2) gives no span; S_ADDI_INT
// scalar [2, 3); the transfer the DMA unit busy over [1, 41); the M_MM matrix [41, 48).
BOOST_AUTO_TEST_CASE(overlap_unit_spans_are_the_transfer_s) {
  const auto& units = spec().units();
  auto unit = [&](const char* name) {
    return static_cast<uint8_t>(std::find(units.begin(), units.end(), name) - units.begin());
  };
  Bench b(queued(2));
  b.model.load(isa::assemble(spec(), R"(
    S_ADDI_INT gp1, gp0, 256
    H_PREFETCH_M gp1, gp0, a0, 0, 0
    S_ADDI_INT gp2, gp0, 0
    M_MM 0, gp1, gp2
  )",
                             "t.asm"),
               b.image);
  using Spans = std::vector<isa::UnitSpan>;
  std::vector<Spans> got;
  isa::RetireRecord r;
  while (b.model.step(r)) got.push_back(b.model.take_unit_spans());
  const uint8_t scalar = unit("scalar"), dma = unit("dma"), matrix = unit("matrix");
  const std::vector<Spans> want{
      {{scalar, 0, 1}}, {}, {{scalar, 2, 3}}, {{dma, 1, 1 + kPrefetchM}}, {{matrix, 41, 48}}};
  BOOST_TEST_REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < want.size(); ++i)
    BOOST_TEST((got[i] == want[i]), "record " << i << ": " << got[i].size() << " spans");
}
