// Checkpoints (docs/checkpoints.md): the file format refuses what it cannot trust, and a
// checkpoint holds the whole architectural state: on each engine, restoring the checkpoint of
// every instruction boundary of a short program with no DMA transfer pending (on `default`, with
// its queue; docs/overlap.md section 8) and continuing gives the same records and end state as
// the uninterrupted run; a restored RTL and a restored golden model co-simulate
// EQUAL; and leaving any one state element out of the checkpoint makes the continuation differ
// (so the every-boundary check would catch a format that forgets it).
//
// Each case elaborates at most one SystemC design, so each is its own ctest entry
// (checkpoint.<case>, CMakeLists.txt beside this file).
#define BOOST_TEST_MODULE checkpoint
#define BOOST_TEST_NO_MAIN
#include <boost/test/unit_test.hpp>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "moesim/cosim/cosim.hpp"
#include "moesim/cosim/engines.hpp"
#include "moesim/cosim/window.hpp"
#include "moesim/isa/assembler.hpp"
#include "moesim/isa/checkpoint.hpp"
#include "moesim/isa/geometry.hpp"
#include "moesim/isa/trace.hpp"

int sc_main(int argc, char** argv) {
  return boost::unit_test::unit_test_main(&init_unit_test, argc, argv);
}

namespace {

using namespace moesim;
using isa::Space;

const isa::Spec& spec() { return isa::Spec::builtin(); }
const isa::MachinePreset& preset() { return spec().preset("default"); }

// Several units, nested loops (one left by C_BREAK), every control register, and the four
// matrix accumulators live across instruction boundaries (M_MM in a loop, M_MV, M_BMV, M_BMM,
// written back only at the end). Addresses for the `default` preset (MLEN = VLEN = 64).
const char* kProgram = R"(; @stage=residual_setup
S_ADDI_INT gp12, gp0, 4096
C_SET_SCALE_REG gp12           ; SCALE = 4096: MX scales after the codes in HBM
C_SET_ADDR_REG a1, gp0, gp0     ; a1 = 0
S_ADDI_INT gp14, gp0, 65536
C_SET_ADDR_REG a2, gp0, gp14    ; a2 = 65536
H_PREFETCH_M gp0, gp0, a1, 0, 0 ; MRAM tile 0 rows 0..63
S_ADDI_INT gp2, gp0, 640
H_PREFETCH_V gp2, gp0, a1, 0, 0 ; VRAM rows 10..13
S_ADDI_INT gp3, gp0, 5
C_SET_V_MASK_REG gp3            ; heads 0 and 2
S_ADDI_INT gp4, gp0, 1920
V_ADD_VV gp4, gp2, gp2, 1       ; row 30, masked
S_LD_FP f1, gp0, 5
S_ADD_FP f2, f1, f1
; @stage=expert_projection
C_LOOP_START gp5, 2
C_LOOP_START gp6, 3
M_MM 0, gp0, gp2                ; acc += tile 0 columns 0..3 x rows 10..13
S_ADDI_INT gp7, gp7, 1
C_LOOP_END gp6
V_MUL_VF gp4, gp4, f2, 0
C_LOOP_END gp5
C_LOOP_START gp8, 4
S_ADDI_INT gp7, gp7, 2
C_BREAK
S_ADDI_INT gp7, gp7, 3
C_LOOP_END gp8
S_ADDI_INT gp9, gp0, 4
M_MV 0, gp9, gp2                ; vacc
M_BMV gp0, gp0, gp2             ; hv
M_BMM 0, gp0, gp2               ; hm (rows 10..73)
S_ADDI_INT gp10, gp0, 2563
C_SET_TOPK_REG gp10             ; E = 10, k = 3
S_ADDI_INT gp11, gp0, 100
S_ADDI_INT gp13, gp0, 200
V_TOPK gp11, gp2, gp13, 15
S_ST_FP f2, gp0, 50
S_ST_INT gp7, gp0, 300
S_ADDI_INT gp3, gp0, 128
C_SET_STRIDE_REG gp3
H_STORE_V gp2, gp0, a2, 1, 0    ; rows 10..13 to HBM 65536 + 128 i
S_ADDI_INT gp3, gp0, 5120
M_MM_WO gp3, gp0, 0             ; row 80
S_ADDI_INT gp3, gp0, 5184
M_MV_WO gp3, 0                  ; row 81
S_ADDI_INT gp3, gp0, 5248
M_BMV_WO gp3, 0                 ; rows 82..85
S_ADDI_INT gp3, gp0, 5504
M_BMM_WO gp3, 0                 ; rows 86..341
S_ADD_FP f3, f2, f1
)";

/// Deterministic data: HBM MX codes in [0x30, 0x50) of either sign with scales 120..131, FP SRAM
/// BF16 values, and a few VRAM rows.
isa::MemoryImage image() {
  uint32_t x = 12345;
  auto next = [&x] {
    x = x * 1103515245u + 12345u;
    return x >> 8;
  };
  isa::MemoryImage img;
  isa::MemorySegment codes{0, std::vector<uint8_t>(4096)};
  for (auto& b : codes.bytes) b = static_cast<uint8_t>(0x30 + next() % 0x20 + (next() % 2) * 0x80);
  img.hbm.push_back(codes);
  isa::MemorySegment scales{4096, std::vector<uint8_t>(512)};
  for (auto& b : scales.bytes) b = static_cast<uint8_t>(120 + next() % 12);
  img.hbm.push_back(scales);
  isa::MemorySegment fp{0, std::vector<uint8_t>(64)};
  for (size_t i = 0; i < 32; ++i) {
    const uint16_t v = static_cast<uint16_t>(0x3F00 + next() % 0x100);  // about 0.5 .. 1
    fp.bytes[2 * i] = static_cast<uint8_t>(v);
    fp.bytes[2 * i + 1] = static_cast<uint8_t>(v >> 8);
  }
  img.fp_sram.push_back(fp);
  isa::MemorySegment rows{2 * 64 * 20, std::vector<uint8_t>(2 * 64 * 4)};
  for (size_t i = 0; i < rows.bytes.size(); i += 2) {
    const uint16_t v = static_cast<uint16_t>(0x3E00 + next() % 0x400);
    rows.bytes[i] = static_cast<uint8_t>(v);
    rows.bytes[i + 1] = static_cast<uint8_t>(v >> 8);
  }
  img.vram.push_back(rows);
  return img;
}

isa::Program program() { return isa::assemble(spec(), kProgram, "checkpoint.asm"); }

/// The uninterrupted run: records (digests filled; retire and, with a DMA queue, transfer
/// records) and the checkpoint file of every boundary with no transfer pending (docs/overlap.md
/// section 8: a checkpoint holds no queue state): files[j] after at[j].retires retires, the first
/// at[j].record records; the last file is the end state, once the queue has drained. Files are
/// kept encoded: a state holds 64 MiB of HBM, its file the non-zero pages. What a restore sees is
/// what a file holds.
struct Boundary {
  size_t retires = 0, record = 0;
};
struct Reference {
  std::vector<isa::RetireRecord> records;
  std::vector<std::string> files;
  std::vector<Boundary> at;
  std::vector<size_t> pending;  ///< boundaries (retire counts) with a transfer pending: no file
  size_t retires = 0;
  isa::ArchState state(size_t j) const {
    return isa::decode_checkpoint(files[j], "memory", image()).state;
  }
  size_t boundaries() const { return files.size(); }
};

Reference run_through(isa::Engine& e, const isa::Program& p, const isa::CheckpointId& id) {
  Reference ref;
  e.load(p, image());
  auto save = [&] {
    ref.files.push_back(isa::encode_checkpoint({id, e.save()}, image()));
    ref.at.push_back({ref.retires, ref.records.size()});
  };
  save();
  cosim::QueueWatch queue(spec(), preset());
  isa::RetireRecord r;
  while (e.step(r)) {
    BOOST_REQUIRE(!r.trap);
    cosim::fill_digests(e, r);
    queue.add(r);
    ref.records.push_back(r);
    if (r.kind != isa::RecordKind::Retire) continue;
    ++ref.retires;
    if (queue.pending() == 0)
      save();
    else
      ref.pending.push_back(ref.retires);
  }
  if (ref.at.back().record != ref.records.size()) save();  // the end, once the queue drained
  return ref;
}

/// Restores the state of boundary `j` (changed by `plant`) and runs to the end; true when every
/// record and the end state equal the uninterrupted run's. `why` gets the first difference.
bool continues_identically(isa::Engine& e, const isa::Program& p, const Reference& ref, size_t j,
                           const std::function<void(isa::ArchState&)>& plant, std::string& why) {
  isa::ArchState s = ref.state(j);
  if (plant) plant(s);
  e.restore(p, s);
  isa::RetireRecord r;
  size_t i = ref.at[j].record;
  while (e.step(r)) {
    cosim::fill_digests(e, r);
    if (i >= ref.records.size()) {
      why = "record " + std::to_string(i) + " past the uninterrupted run's end";
      return false;
    }
    const auto fields = cosim::differing_fields(ref.records[i], r);
    if (!fields.empty()) {
      why = "record " + std::to_string(i) + " differs in " + fields.front();
      return false;
    }
    ++i;
  }
  if (i != ref.records.size()) {
    why =
        "stopped after " + std::to_string(i) + " records of " + std::to_string(ref.records.size());
    return false;
  }
  const auto diffs = isa::state_differences(ref.state(ref.boundaries() - 1), e.save());
  if (!diffs.empty()) {
    why = "end state: " + diffs.front();
    return false;
  }
  return true;
}

/// The boundaries (retire counts) of kProgram on `default` (DMA_QUEUE 2) with a transfer
/// pending, derived by hand from docs/overlap.md and isa.yaml's latencies: H_PREFETCH_M (retire 6)
/// issues its 152-cycle transfer (24 + 64 rows * (1 + 1)) in cycle 5, H_PREFETCH_V (retire 8)
/// queues behind it; V_ADD_VV (retire 12) reads VRAM row 10 of the second transfer and stalls
/// until both have completed (their transfer records come before its retire): boundaries 6 to 11.
/// H_STORE_V (retire T - 9 of T) runs its 33-cycle transfer (24 + 1 + 4 * 2) alone; the seven
/// one- to four-cycle instructions after it (S_ADDI_INT, M_MM_WO 4, S_ADDI_INT, M_MV_WO 1,
/// S_ADDI_INT, M_BMV_WO 4, S_ADDI_INT: 14 cycles) end before it, M_BMM_WO (257 cycles, rows 86 to
/// 341, no conflict with rows 10 to 13) after: boundaries T - 9 to T - 2.
std::vector<size_t> pending_boundaries(size_t total) {
  std::vector<size_t> b;
  for (size_t k = 6; k <= 11; ++k) b.push_back(k);
  for (size_t k = total - 9; k <= total - 2; ++k) b.push_back(k);
  return b;
}

void every_boundary(isa::Engine& e) {
  BOOST_REQUIRE(preset().get("DMA_QUEUE") == 2);
  const isa::Program p = program();
  const isa::CheckpointId id = isa::checkpoint_id(spec(), preset(), p, image());
  const Reference ref = run_through(e, p, id);
  BOOST_TEST_MESSAGE(e.name() << ": " << ref.retires << " retires, " << ref.boundaries()
                              << " checkpoints");
  BOOST_REQUIRE_GT(ref.retires, 40u);
  // Three transfer records, and a checkpoint at every other boundary.
  BOOST_TEST(ref.records.size() == ref.retires + 3);
  BOOST_TEST(ref.pending == pending_boundaries(ref.retires), boost::test_tools::per_element());
  BOOST_TEST(ref.boundaries() == ref.retires + 1 - ref.pending.size());
  for (size_t j = 0; j < ref.boundaries(); ++j) {
    std::string why;
    BOOST_TEST(continues_identically(e, p, ref, j, nullptr, why),
               e.name() << " restored at retire " << ref.at[j].retires << ": " << why);
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(golden_restore_every_boundary) {
  auto g = cosim::make_golden_engine(spec(), preset());
  every_boundary(*g);
}

BOOST_AUTO_TEST_CASE(rtl_restore_every_boundary) {
  auto r = cosim::make_rtl_engine(spec(), preset());
  every_boundary(*r);
}

// Golden and RTL restored from the golden model's checkpoint of every boundary co-simulate
// EQUAL to the end, and the RTL's end state is the golden's, bit for bit.
BOOST_AUTO_TEST_CASE(restored_engines_cosimulate_equal) {
  auto g = cosim::make_golden_engine(spec(), preset());
  auto r = cosim::make_rtl_engine(spec(), preset());
  const isa::Program p = program();
  const isa::CheckpointId id = isa::checkpoint_id(spec(), preset(), p, image());
  const Reference ref = run_through(*g, p, id);
  for (size_t j = 0; j < ref.boundaries(); ++j) {
    const size_t k = ref.at[j].retires;
    const isa::ArchState s = ref.state(j);
    g->restore(p, s);
    r->restore(p, s);
    const cosim::CosimResult res = cosim::run_cosim(spec(), *g, *r, {});
    BOOST_TEST(res.equal(), "restored at retire " << k);
    BOOST_TEST(res.compared ==
               ref.retires - k);  // retire records (a transfer is part of its DMA instruction's)
    const auto diffs = isa::state_differences(g->save(), r->save());
    BOOST_TEST(diffs.empty(),
               "restored at retire " << k << ": " << (diffs.empty() ? "" : diffs[0]));
  }
}

// Each state element, left out of the checkpoint (reset to its load() value in every
// checkpoint), makes the continuation from some boundary differ on the golden model: the
// program exercises all of them, so the every-boundary check fails for a format missing one.
BOOST_AUTO_TEST_CASE(every_state_element_matters) {
  auto g = cosim::make_golden_engine(spec(), preset());
  const isa::Program p = program();
  const isa::CheckpointId id = isa::checkpoint_id(spec(), preset(), p, image());
  const Reference ref = run_through(*g, p, id);
  const isa::ArchState blank = ref.state(0);  // after load(): the reset values
  using Plant = std::function<void(isa::ArchState&)>;
  const std::vector<std::pair<std::string, Plant>> elements = {
      {"pc", [](isa::ArchState& s) { s.pc = 0; }},
      {"retired", [](isa::ArchState& s) { s.retired = 0; }},
      {"cycle", [](isa::ArchState& s) { s.cycle = 0; }},
      {"instruction_budget", [](isa::ArchState& s) { s.instruction_budget = s.retired + 1; }},
      {"gp", [&](isa::ArchState& s) { s.regs.gp = blank.regs.gp; }},
      {"fp", [&](isa::ArchState& s) { s.regs.fp = blank.regs.fp; }},
      {"addr", [&](isa::ArchState& s) { s.regs.addr = blank.regs.addr; }},
      {"SCALE", [&](isa::ArchState& s) { s.regs.scale = blank.regs.scale; }},
      {"STRIDE", [&](isa::ArchState& s) { s.regs.stride = blank.regs.stride; }},
      {"V_MASK", [&](isa::ArchState& s) { s.regs.v_mask = blank.regs.v_mask; }},
      {"TOPK_POLICY", [&](isa::ArchState& s) { s.regs.topk_policy = blank.regs.topk_policy; }},
      {"TOPK_VALID", [&](isa::ArchState& s) { s.regs.topk_valid = false; }},
      {"loop stack", [](isa::ArchState& s) { s.loops.clear(); }},
      {"loop break marks",
       [](isa::ArchState& s) {
         for (auto& l : s.loops) l.broken = false;
       }},
      {"acc", [&](isa::ArchState& s) { s.acc = blank.acc; }},
      {"vacc", [&](isa::ArchState& s) { s.vacc = blank.vacc; }},
      {"hv", [&](isa::ArchState& s) { s.hv = blank.hv; }},
      {"hm", [&](isa::ArchState& s) { s.hm = blank.hm; }},
  };
  std::vector<std::pair<std::string, Plant>> all = elements;
  for (Space sp : isa::kAllSpaces) {
    all.emplace_back(isa::space_name(sp), [&blank, sp](isa::ArchState& s) {
      s.mem[static_cast<size_t>(sp)] = blank.mem[static_cast<size_t>(sp)];
    });
  }
  for (const auto& [name, plant] : all) {
    size_t caught = 0;
    std::string first;
    for (size_t j = 0; j < ref.boundaries(); ++j) {
      std::string why;
      if (!continues_identically(*g, p, ref, j, plant, why)) {
        caught = 1;
        first = "retire " + std::to_string(ref.at[j].retires) + ": " + why;
        break;
      }
    }
    BOOST_TEST(caught > 0, "leaving out " << name << " changes nothing");
    BOOST_TEST_MESSAGE("without " << name << ": first difference from " << first);
  }
}

// The file format: a round trip keeps every field; a corrupt, truncated or foreign-version file,
// or one made with other YAML, preset, program or image, is refused naming the file and what
// differs.
BOOST_AUTO_TEST_CASE(format_refuses_what_it_cannot_trust) {
  const isa::Program p = program();
  const isa::CheckpointId id = isa::checkpoint_id(spec(), preset(), p, image());
  isa::ArchState s;
  const isa::StateShape shape = isa::state_shape(preset());
  s.pc = 7;
  s.retired = 1234;
  s.cycle = 98765;
  s.instruction_budget = 1000000;
  s.regs.gp[3] = 0xDEADBEEF;
  s.regs.fp[2] = 0x3F80;
  s.regs.addr[5] = 0x123456789ull;
  s.regs.topk_valid = true;
  s.regs.topk_policy = 0x0A03;
  s.loops = {{3, false}, {9, true}};
  s.acc.assign(shape.acc, 1);
  s.vacc.assign(shape.vacc, 2);
  s.hv.assign(shape.hv, 3);
  s.hm.assign(shape.hm, 4);
  s.hm.back() = 0x7FC00001;
  for (Space sp : isa::kAllSpaces)
    s.mem[static_cast<size_t>(sp)].assign(shape.mem_bytes[static_cast<size_t>(sp)], 0);
  s.mem[static_cast<size_t>(Space::Hbm)][5000] = 0x5A;
  s.mem[static_cast<size_t>(Space::Vram)].back() = 0xA5;
  const std::string bytes = isa::encode_checkpoint({id, s}, image());
  const isa::Checkpoint back = isa::decode_checkpoint(bytes, "x.ckpt", image());
  BOOST_TEST(isa::state_differences(s, back.state).empty());
  BOOST_TEST(back.id.preset == "default");
  BOOST_TEST(back.id.program == id.program);
  // A sparse file: far smaller than the 64 MiB of HBM it describes.
  BOOST_TEST(bytes.size() < 200000u);

  auto refused = [&](const std::string& b, const std::string& what) {
    try {
      isa::decode_checkpoint(b, "x.ckpt", image());
    } catch (const isa::CheckpointError& e) {
      const std::string m = e.what();
      BOOST_TEST(m.find("x.ckpt") != std::string::npos, m);
      BOOST_TEST(m.find(what) != std::string::npos, m << " (wanted '" << what << "')");
      return;
    }
    BOOST_ERROR("accepted a checkpoint that is " << what);
  };
  std::string corrupt = bytes;
  corrupt[bytes.size() - 10] ^= 0x01;
  refused(corrupt, "checksum");
  refused(bytes.substr(0, bytes.size() - 100), "truncated");
  refused(bytes.substr(0, 20), "truncated");
  std::string version = bytes;
  version[8] = 1;
  refused(version, "version 1");
  refused("not a checkpoint at all", "not a moesim checkpoint");

  // Identity: read_checkpoint holds the file to the run's.
  const auto dir = std::filesystem::temp_directory_path() / "moesim_checkpoint_test";
  std::filesystem::create_directories(dir);
  const auto path = dir / "c.ckpt";
  isa::write_checkpoint({id, s}, image(), path);
  BOOST_CHECK_NO_THROW(isa::read_checkpoint(path, image(), &id, &preset()));
  auto expect_refusal = [&](isa::CheckpointId other, const std::string& what) {
    try {
      isa::read_checkpoint(path, image(), &other, &preset());
    } catch (const isa::CheckpointError& e) {
      const std::string m = e.what();
      BOOST_TEST(m.find(path.string()) != std::string::npos, m);
      BOOST_TEST(m.find(what) != std::string::npos, m << " (wanted '" << what << "')");
      return;
    }
    BOOST_ERROR("accepted a checkpoint of another " << what);
  };
  isa::CheckpointId other = id;
  other.isa_yaml ^= 1;
  expect_refusal(other, "isa.yaml");
  other = id;
  other.machine_yaml ^= 1;
  expect_refusal(other, "machine.yaml");
  other = id;
  other.preset = "tiny";
  expect_refusal(other, "preset");
  other = id;
  other.program ^= 1;
  expect_refusal(other, "program");
  other = id;
  other.image ^= 1;
  expect_refusal(other, "image");
  // A state of another preset's shape.
  try {
    isa::read_checkpoint(path, image(), &id, &spec().preset("tiny"));
    BOOST_ERROR("accepted a default-shaped state for tiny");
  } catch (const isa::CheckpointError& e) {
    BOOST_TEST(std::string(e.what()).find("tiny") != std::string::npos, e.what());
  }
  // A position no run of this program reaches, in a file whose checksum holds.
  BOOST_CHECK_NO_THROW(isa::read_checkpoint(path, image(), &id, &preset(), &p));
  auto position_refused = [&](const std::function<void(isa::ArchState&)>& edit,
                              const std::string& what) {
    isa::ArchState t = s;
    edit(t);
    isa::write_checkpoint({id, t}, image(), path);
    try {
      isa::read_checkpoint(path, image(), &id, &preset(), &p);
      BOOST_ERROR("accepted a checkpoint whose " << what);
    } catch (const isa::CheckpointError& e) {
      const std::string m = e.what();
      BOOST_TEST(m.find(path.string()) != std::string::npos, m);
      BOOST_TEST(m.find(what) != std::string::npos, m << " (wanted '" << what << "')");
    }
  };
  const std::string words = std::to_string(p.words.size());
  position_refused([&](isa::ArchState& t) { t.pc = static_cast<uint32_t>(p.words.size() + 1); },
                   "pc " + std::to_string(p.words.size() + 1) + " is past the program's " + words);
  position_refused([](isa::ArchState& t) { t.instruction_budget = 0; }, "instruction budget 0");
  position_refused([](isa::ArchState& t) { t.retired = 1000000000000000ull; },
                   "1000000000000000 instructions retired, more than the instruction budget");
  position_refused([](isa::ArchState& t) { t.cycle = 5; }, "cycle 5 is less than the 1234");
  position_refused([&](isa::ArchState& t) { t.loops[1].body = 4000; },
                   "a loop body starts at pc 4000, past the program's " + words);
  std::filesystem::remove_all(dir);
}

// A count in a section that the bytes left cannot hold (2^62 accumulator words) is refused as
// corrupt before anything is allocated, even when the checksum is recomputed to match.
BOOST_AUTO_TEST_CASE(format_refuses_a_count_larger_than_the_file) {
  const isa::Program p = program();
  const isa::CheckpointId id = isa::checkpoint_id(spec(), preset(), p, image());
  auto g = cosim::make_golden_engine(spec(), preset());
  g->load(p, image());
  std::string b = isa::encode_checkpoint({id, g->save()}, image());
  // Header: magic 8, version 4, id length 4, id, payload length 8, checksum 8, payload.
  uint32_t id_len = 0;
  std::memcpy(&id_len, b.data() + 12, 4);
  const size_t payload = 16 + id_len + 16;
  const size_t macc = b.find("MACC", payload);
  BOOST_REQUIRE(macc != std::string::npos);
  const uint64_t huge = uint64_t{1} << 62;
  std::memcpy(b.data() + macc + 12, &huge, 8);  // tag 4, body length 8, then the acc count
  uint64_t sum = isa::fnv1a64(reinterpret_cast<const uint8_t*>(b.data() + 16), id_len);
  sum = isa::fnv1a64(reinterpret_cast<const uint8_t*>(b.data() + payload), b.size() - payload, sum);
  std::memcpy(b.data() + payload - 8, &sum, 8);
  try {
    isa::decode_checkpoint(b, "x.ckpt", image());
    BOOST_ERROR("accepted a count of 2^62 accumulator words");
  } catch (const isa::CheckpointError& e) {
    const std::string m = e.what();
    BOOST_TEST(m.find("x.ckpt") != std::string::npos, m);
    BOOST_TEST(m.find("a count of 4611686018427387904 items of 4 bytes") != std::string::npos, m);
  }
}

// Memories are stored as the pages that differ from the run's initial image: a state equal to a
// large image stores no page, one changed byte stores one page, overlapping segments read as the
// engines load them (the later wins), and a file read against another image is refused.
BOOST_AUTO_TEST_CASE(memories_are_stored_as_changes_to_the_initial_image) {
  const isa::Program p = program();
  isa::MemoryImage big;
  isa::MemorySegment weights{8192, std::vector<uint8_t>(4u << 20)};
  uint32_t x = 7;
  for (auto& b : weights.bytes) {
    x = x * 1664525u + 1013904223u;
    b = static_cast<uint8_t>(x >> 24);
  }
  big.hbm.push_back(weights);
  big.hbm.push_back({8192 + 100, std::vector<uint8_t>(300, 0xEE)});  // over the first: it wins
  const isa::CheckpointId id = isa::checkpoint_id(spec(), preset(), p, big);
  auto g = cosim::make_golden_engine(spec(), preset());
  g->load(p, big);
  const isa::ArchState s0 = g->save();
  BOOST_REQUIRE(s0.mem[static_cast<size_t>(Space::Hbm)][8192 + 100] == 0xEE);
  const std::string unchanged = isa::encode_checkpoint({id, s0}, big);
  for (const isa::StoredPages& sp : isa::stored_pages(s0, big)) BOOST_TEST(sp.stored == 0u);
  // The registers and accumulators (64 KiB of hm) but not the 4 MiB of weights.
  BOOST_TEST(unchanged.size() < 100000u, unchanged.size()
                                             << " bytes for a state equal to its image");
  isa::ArchState s1 = s0;
  s1.mem[static_cast<size_t>(Space::Hbm)][8192 + 4096 * 300 + 5] ^= 0x40;
  const std::string one = isa::encode_checkpoint({id, s1}, big);
  BOOST_TEST(one.size() == unchanged.size() + 8 + 4096, one.size() << " vs " << unchanged.size());
  for (const std::string* f : {&unchanged, &one}) {
    const isa::ArchState back = isa::decode_checkpoint(*f, "x.ckpt", big, &id).state;
    BOOST_TEST(isa::state_differences(f == &one ? s1 : s0, back).empty());
  }
  try {
    isa::decode_checkpoint(one, "x.ckpt", image());
    BOOST_ERROR("decoded a checkpoint against another initial image");
  } catch (const isa::CheckpointError& e) {
    BOOST_TEST(std::string(e.what()).find("x.ckpt: made from another initial memory image") == 0,
               e.what());
  }
}
