// GoldenModel API: loading and its errors, read()/size(), halt, reload, one instance per process,
// the memory targets' TLM behaviour, a hand-checked cycle total, unit busy spans against isa.yaml
// and a speed measurement.
#include <tlm_utils/simple_initiator_socket.h>

#include <algorithm>
#include <chrono>
#include <set>

#include "golden_test_util.hpp"
#include "memory.hpp"

using namespace gt;

namespace {

/// Message of the exception `f` throws (empty if none or another type).
template <class E, class F>
std::string what_of(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  return {};
}

}  // namespace

BOOST_AUTO_TEST_CASE(api_load_errors_and_sizes) {
  Bench b;
  const isa::MachinePreset p = tiny();
  BOOST_TEST(b.model.size(Space::Vram) == 2048u);
  BOOST_TEST(b.model.size(Space::Mram) == 8u * 16u);
  BOOST_TEST(b.model.size(Space::FpSram) == 2048u);
  BOOST_TEST(b.model.size(Space::IntSram) == 1024u);
  BOOST_TEST(b.model.size(Space::Hbm) == 16777216u);
  const isa::Program prog = isa::assemble(spec(), "S_ADDI_INT gp1, gp0, 1\n");

  // A VRAM segment whose last byte is one past the end (2048 rows * 32 bytes).
  isa::MemoryImage img;
  img.vram.push_back({2048 * 32 - 1, {1, 2}});
  std::string msg = what_of<std::invalid_argument>([&] { b.model.load(prog, img); });
  BOOST_TEST(msg.find("vram") != std::string::npos, msg);
  BOOST_TEST(msg.find("65535") != std::string::npos, msg);
  // An HBM segment starting past the end; a segment that fits exactly is fine.
  img = {};
  img.hbm.push_back({16777217, {1}});
  msg = what_of<std::invalid_argument>([&] { b.model.load(prog, img); });
  BOOST_TEST(msg.find("hbm") != std::string::npos, msg);
  BOOST_TEST(msg.find("16777217") != std::string::npos, msg);
  img = {};
  img.mram.push_back({128 * 18 - 2, {0xAB, 0xCD}});
  b.model.load(prog, img);
  BOOST_TEST(b.model.read(Space::Mram, 127, 1)[17] == 0xCD);
  // Program longer than IMEM_WORDS; stage table of the wrong length.
  isa::Program big;
  big.words.assign(static_cast<size_t>(p.get("IMEM_WORDS")) + 1, prog.words[0]);
  BOOST_CHECK_THROW(b.model.load(big, {}), std::invalid_argument);
  isa::Program bad_stages = prog;
  bad_stages.stages = {0, 0};
  BOOST_CHECK_THROW(b.model.load(bad_stages, {}), std::invalid_argument);
  // read() outside a space.
  BOOST_CHECK_THROW(b.model.read(Space::Vram, 2048, 1), std::out_of_range);
  BOOST_CHECK_THROW(b.model.read(Space::IntSram, 1000, 25), std::out_of_range);
  BOOST_CHECK_THROW(b.model.read(Space::Hbm, ~0ull, 2), std::out_of_range);
  BOOST_TEST(b.model.read(Space::IntSram, 1000, 24).size() == 96u);
  // One GoldenModel per process.
  msg = what_of<std::logic_error>([&] { GoldenModel second(spec(), p); });
  BOOST_TEST(msg.find("one elaboration per process") != std::string::npos, msg);
}

BOOST_AUTO_TEST_CASE(api_halt_and_reload) {
  Bench b;
  // Empty program: halted at once.
  b.run(isa::Program{});
  BOOST_TEST(b.recs.empty());
  BOOST_TEST(b.model.halted());
  BOOST_TEST(b.model.cycles() == 0u);

  b.int_words(3, {42});
  const isa::Program prog =
      isa::assemble(spec(), "S_LD_INT gp1, gp0, 3\nS_ST_INT gp1, gp0, 4\n", "p.asm");
  b.model.load(prog, b.image);
  BOOST_TEST(!b.model.halted());
  isa::RetireRecord r;
  BOOST_TEST_REQUIRE(b.model.step(r));
  BOOST_TEST(r.pc == 0u);
  BOOST_TEST(!b.model.halted());
  BOOST_TEST(b.model.retired() == 1u);
  BOOST_TEST_REQUIRE(b.model.step(r));
  BOOST_TEST(r.pc == 1u);
  BOOST_TEST(b.model.halted());  // pc moved past the end: halt costs no cycle
  const uint64_t end = r.end_cycle;
  BOOST_TEST(b.model.cycles() == end);
  r.pc = 77;
  BOOST_TEST(!b.model.step(r));
  BOOST_TEST(r.pc == 77u);  // untouched
  BOOST_TEST(b.int_word(4) == 42u);

  // Reload mid-program: a new load restarts cleanly (registers, memories, cycles).
  b.model.load(prog, b.image);
  BOOST_TEST_REQUIRE(b.model.step(r));
  b.model.load(prog, {});
  BOOST_TEST(b.model.regs().gp[1] == 0u);
  BOOST_TEST(b.int_word(3) == 0u);
  BOOST_TEST_REQUIRE(b.model.step(r));
  BOOST_TEST(r.start_cycle == 0u);
  BOOST_TEST(r.index == 0u);
  BOOST_TEST_REQUIRE(b.model.step(r));
  BOOST_TEST(r.end_cycle == end);
  BOOST_TEST(!b.model.step(r));
  BOOST_TEST(b.int_word(4) == 0u);
}

BOOST_AUTO_TEST_CASE(api_cycles_hand_checked) {
  Bench b;
  // The one hand-checked literal case (the other tests use Spec::latency, so only this one needs
  // an update when the RTL team changes a formula in isa.yaml). Latencies on tiny, by hand:
  // S_ADDI_INT 1, V_ADD_VV 2, S_MAP_V_FP VLEN = 16, V_RED_SUM log2(16)+2 = 6,
  // M_MM BLEN+MLEN/MX_BLOCK+1 = 4+2+1 = 7, M_MM_WO BLEN = 4,
  // H_PREFETCH_V HBM_LATENCY+rows*(ceil(16/16)+ceil(2/16)) = 8+4*2 = 16, H_PREFETCH_M 8+16*2 = 40,
  // H_STORE_V HBM_LATENCY+1+rows*2 = 17, V_TOPK rmask 0 E+2k+1 = 32+8+1 = 41, V_GATHER 2,
  // C_SET_SCALE_REG 1.
  b.run(R"(
    S_ADDI_INT gp1, gp0, 0
    V_ADD_VV gp0, gp0, gp0
    S_MAP_V_FP gp0, gp0, 0
    V_RED_SUM f1, gp0
    M_MM 0, gp0, gp0
    M_MM_WO gp0, gp0, 0
    H_PREFETCH_V gp0, gp0, a0, 0, 0
    H_PREFETCH_M gp0, gp0, a0, 0, 0
    H_STORE_V gp0, gp0, a0, 0, 0
    V_TOPK gp0, gp0, gp0, 0
    V_GATHER gp0, gp0, gp0
    C_SET_SCALE_REG gp0
  )");
  BOOST_TEST_REQUIRE(b.recs.size() == 12u);
  BOOST_TEST(b.model.cycles() == 153u);
  b.check_timeline({1, 2, 16, 6, 7, 4, 16, 40, 17, 41, 2, 1});
  // The same from isa.yaml through Spec::latency.
  b.check_timeline(
      {b.lat("S_ADDI_INT"), b.lat("V_ADD_VV"), b.lat("S_MAP_V_FP"), b.lat("V_RED_SUM"),
       b.lat("M_MM"), b.lat("M_MM_WO"), b.lat("H_PREFETCH_V", {{"rows", 4}, {"len", 16}}),
       b.lat("H_PREFETCH_M", {{"rows", 16}, {"len", 16}}),
       b.lat("H_STORE_V", {{"rows", 4}, {"len", 16}}), b.lat("V_TOPK", {{"E", 32}, {"k", 4}}),
       b.lat("V_GATHER"), b.lat("C_SET_SCALE_REG")});
}

BOOST_AUTO_TEST_CASE(api_unit_spans_follow_isa_latencies) {
  Bench b;
  // Every unit, a loop (consecutive scalar and control instructions give one span each) and a
  // trap at the end (no span). Expected: the instruction's isa.yaml unit, back to back from cycle
  // 0 with the isa.yaml latencies, in the order the instructions execute.
  const isa::Program prog = isa::assemble(spec(), R"(
    C_LOOP_START gp1, 2
    S_ADDI_INT gp2, gp2, 1
    C_LOOP_END gp1
    V_ADD_VV gp0, gp0, gp0
    M_MM 0, gp0, gp0
    H_PREFETCH_V gp0, gp0, a0, 0, 0
    V_TOPK gp0, gp0, gp0, 0
    S_MAP_V_FP gp0, gp0, 0
    C_LOOP_END gp1
  )");
  const std::vector<std::pair<std::string, std::map<std::string, int64_t>>> executed = {
      {"C_LOOP_START", {}},
      {"S_ADDI_INT", {}},
      {"C_LOOP_END", {}},
      {"S_ADDI_INT", {}},
      {"C_LOOP_END", {}},
      {"V_ADD_VV", {}},
      {"M_MM", {}},
      {"H_PREFETCH_V", {{"rows", 4}, {"len", 16}}},
      {"V_TOPK", {{"E", 32}, {"k", 4}}},
      {"S_MAP_V_FP", {}}};
  const std::vector<std::string>& units = spec().units();
  std::vector<isa::UnitSpan> expected;
  uint64_t t = 0;
  for (const auto& [mnemonic, dyn] : executed) {
    const std::string& unit = spec().by_mnemonic(mnemonic)->unit;
    const auto u =
        static_cast<uint8_t>(std::find(units.begin(), units.end(), unit) - units.begin());
    const uint64_t end = t + static_cast<uint64_t>(b.lat(mnemonic, dyn));
    expected.push_back({u, t, end});
    t = end;
  }
  std::set<uint8_t> seen;
  for (const isa::UnitSpan& s : expected) seen.insert(s.unit);
  BOOST_TEST(seen.size() == units.size());  // the program exercises every unit

  b.model.load(prog, {});
  isa::RetireRecord r;
  std::vector<isa::UnitSpan> got;
  while (b.model.step(r)) {
    const std::vector<isa::UnitSpan> s = b.model.take_unit_spans();
    BOOST_TEST(s.size() == (r.trap ? 0u : 1u), "record " << r.index << " pc " << r.pc);
    got.insert(got.end(), s.begin(), s.end());
  }
  BOOST_TEST_REQUIRE(r.trap.has_value());
  BOOST_TEST(b.model.take_unit_spans().empty());
  BOOST_TEST_REQUIRE(got.size() == expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    BOOST_TEST_CONTEXT("span " << i << " (" << executed[i].first << ")") {
      BOOST_TEST(int(got[i].unit) == int(expected[i].unit));
      BOOST_TEST(got[i].begin == expected[i].begin);
      BOOST_TEST(got[i].end == expected[i].end);
    }
  }
  // Spans not taken before a load() are dropped with the old program.
  b.model.load(prog, {});
  BOOST_TEST_REQUIRE(b.model.step(r));
  b.model.load(prog, {});
  BOOST_TEST(b.model.take_unit_spans().empty());
}

BOOST_AUTO_TEST_CASE(api_default_preset) {
  // The default preset's parameters (MLEN 64) elaborate and run: `serial` is `default` with
  // DMA_QUEUE 0, so the timeline is isa.yaml's serial latencies.
  Bench b(spec().preset("serial"));
  b.run("H_PREFETCH_V gp0, gp0, a0, 0, 0\nV_RED_SUM f1, gp0\n");
  BOOST_TEST_REQUIRE(b.recs.size() == 2u);
  b.check_timeline({b.lat("H_PREFETCH_V", {{"rows", 4}, {"len", 64}}), b.lat("V_RED_SUM")});
  BOOST_TEST(b.model.size(Space::Vram) == 8192u);
}

BOOST_AUTO_TEST_CASE(api_memory_target_tlm) {
  // A MemoryTarget on its own, driven through a TLM initiator socket.
  struct Initiator : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<Initiator> socket{"socket"};
    explicit Initiator(sc_core::sc_module_name n) : sc_module(n) {}
    tlm::tlm_response_status transport(tlm::tlm_command cmd, uint64_t addr, uint8_t* data,
                                       unsigned len, uint8_t* byte_enable = nullptr) {
      tlm::tlm_generic_payload p;
      p.set_command(cmd);
      p.set_address(addr);
      p.set_data_ptr(data);
      p.set_data_length(len);
      p.set_streaming_width(len);
      p.set_byte_enable_ptr(byte_enable);
      if (byte_enable != nullptr) p.set_byte_enable_length(len);
      p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
      socket->b_transport(p, delay);
      return p.get_response_status();
    }
  };
  moesim::golden::Memory mem(64);
  moesim::golden::MemoryTarget target("target", mem, {"a2m", "b2m"});
  Initiator a("a");
  Initiator c("c");
  a.socket.bind(target.port("a2m"));
  c.socket.bind(target.port("b2m"));
  BOOST_CHECK_THROW(target.port("x2m"), std::logic_error);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);

  uint8_t buf[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  BOOST_TEST(a.transport(tlm::TLM_WRITE_COMMAND, 56, buf, 8) == tlm::TLM_OK_RESPONSE);
  uint8_t back[8] = {};
  BOOST_TEST(c.transport(tlm::TLM_READ_COMMAND, 56, back, 8) == tlm::TLM_OK_RESPONSE);
  BOOST_TEST(std::vector<uint8_t>(back, back + 8) == std::vector<uint8_t>(buf, buf + 8),
             boost::test_tools::per_element());
  BOOST_TEST(a.transport(tlm::TLM_READ_COMMAND, 60, back, 8) == tlm::TLM_ADDRESS_ERROR_RESPONSE);
  BOOST_TEST(a.transport(tlm::TLM_WRITE_COMMAND, 64, buf, 1) == tlm::TLM_ADDRESS_ERROR_RESPONSE);
  BOOST_TEST(a.transport(tlm::TLM_READ_COMMAND, ~0ull - 3, back, 8) ==
             tlm::TLM_ADDRESS_ERROR_RESPONSE);
  uint8_t be[8] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
  BOOST_TEST(a.transport(tlm::TLM_READ_COMMAND, 0, back, 8, be) ==
             tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
  BOOST_TEST(a.transport(tlm::TLM_IGNORE_COMMAND, 0, back, 8) == tlm::TLM_COMMAND_ERROR_RESPONSE);
  BOOST_TEST(mem.data()[63] == 8);
}

BOOST_AUTO_TEST_CASE(api_speed) {
  // Throughput of the golden model on a loop of mixed instructions (printed with
  // --log_level=message); the result is checked, the speed is only reported.
  Bench b;
  b.vram_row(1, fill(16, bf(1.0f)));
  const auto t0 = std::chrono::steady_clock::now();
  b.run(R"(
    S_ADDI_INT gp1, gp0, 16
    S_ADDI_INT gp2, gp0, 32
    C_LOOP_START gp3, 1000
      C_LOOP_START gp4, 20
        V_ADD_VV gp2, gp2, gp1
        S_ADDI_INT gp5, gp5, 1
        V_RED_SUM f1, gp1
        S_ST_INT gp5, gp0, 0
      C_LOOP_END gp4
    C_LOOP_END gp3
  )");
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const uint64_t n = b.model.retired();
  BOOST_TEST(n == 3u + 1000u * (1u + 20u * 5u + 1u));  // 2 ADDI + outer start; per outer pass
  BOOST_TEST(b.model.regs().gp[5] == 20000u);
  BOOST_TEST_MESSAGE("golden: " << n << " instructions in " << s << " s = " << n / s
                                << " instructions/s (" << b.model.cycles() / s
                                << " simulated cycles/s)");
}
