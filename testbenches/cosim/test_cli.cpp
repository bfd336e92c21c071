// The `moesim` command line, run as a subprocess: the README cosim command, a planted
// divergence, asm/disasm round trip, run --dump, and bad input. Every check that guards a
// result is also shown to reject a broken result.
#include <sys/wait.h>
#include <yaml-cpp/yaml.h>

#include <array>
#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "../waveforms/vcd_reader.hpp"
#include "moesim/isa/assembler.hpp"
#include "moesim/isa/encoding.hpp"
#include "moesim/workload/builder.hpp"
#include "moesim_test/cli.hpp"
#include "moesim_test/json_diff.hpp"
#include "moesim_test/readme_demo.hpp"

namespace fs = std::filesystem;
using namespace moesim;
using nlohmann::json;

namespace {

const std::string kReadmeFlags = "--model gpt-oss-20b --tokens 4 --hidden 128 --intermediate 128";

using Result = moesim::test::CliResult;
using moesim::test::moesim_cli;
using moesim::test::slurp;
using moesim::test::workdir;

json read_json(const fs::path& p) {
  std::ifstream in(p);
  BOOST_REQUIRE_MESSAGE(in.good(), "cannot read " << p);
  return json::parse(in);
}

/// Problems with a passing cosim report (empty if it is one).
std::vector<std::string> report_problems(const json& r) {
  std::vector<std::string> p;
  auto need = [&](bool ok, const std::string& what) {
    if (!ok) p.push_back(what);
  };
  for (const char* k : {"outputs_bit_exact", "cycles_match", "total_cycles", "stages",
                        "first_divergence", "program", "preset", "seed", "wall_time_s"})
    need(r.contains(k), std::string("missing ") + k);
  if (!p.empty()) return p;
  need(r["outputs_bit_exact"] == true, "outputs_bit_exact is not true");
  need(r["cycles_match"] == true, "cycles_match is not true");
  need(r["first_divergence"].is_null(), "first_divergence is not null");
  const uint64_t g = r["total_cycles"]["golden"], t = r["total_cycles"]["rtl"];
  need(g == t && g > 0, "total cycles differ or are 0");
  uint64_t sg = 0, sr = 0, si = 0;
  for (const auto& [name, s] : r["stages"].items()) {
    sg += s["golden_cycles"].get<uint64_t>();
    sr += s["rtl_cycles"].get<uint64_t>();
    si += s["instructions"].get<uint64_t>();
  }
  need(sg == g, "golden stage cycles sum " + std::to_string(sg) + " != " + std::to_string(g));
  need(sr == t, "rtl stage cycles sum " + std::to_string(sr) + " != " + std::to_string(t));
  need(si == r["instructions"].get<uint64_t>(), "stage instructions do not sum to the total");
  return p;
}

/// Which retired instruction first reads HBM byte `byte`: a small interpreter of the
/// address arithmetic (S_*_INT, C_SET_*, loops) that evaluates the HBM ranges of
/// H_PREFETCH_V/M. It stops with an error if such a range depends on data (S_LD_INT).
struct Reader {
  uint64_t index = 0;
  uint32_t pc = 0;
  std::string mnemonic;
};

std::optional<Reader> first_hbm_reader(const isa::Spec& spec, const isa::MachinePreset& m,
                                       const isa::Program& prog, uint64_t byte) {
  std::array<std::optional<uint32_t>, 16> gp;
  gp.fill(0u);
  std::array<uint64_t, 8> addr{};
  uint64_t scale = 0, stride = 1;
  std::vector<uint32_t> loop_body;
  auto G = [&](unsigned r) -> uint32_t {
    if (!gp[r])
      throw std::runtime_error("HBM address depends on data (gp" + std::to_string(r) + ")");
    return *gp[r];
  };
  auto set = [&](unsigned r, std::optional<uint32_t> v) {
    if (r != 0) gp[r] = v;
  };
  const uint64_t mxb = static_cast<uint64_t>(m.mx_block());
  uint64_t index = 0;
  for (uint32_t pc = 0; pc < prog.size(); ++index) {
    const isa::Decoded d = isa::decode(spec, prog.words[pc]);
    const std::string& mn = d.spec->mnemonic;
    uint32_t next = pc + 1;
    if (mn == "S_ADDI_INT") {
      set(d.rd, G(d.rs1) + d.imm18);
    } else if (mn == "S_ADD_INT") {
      set(d.rd, G(d.rs1) + G(d.rs2));
    } else if (mn == "S_SUB_INT") {
      set(d.rd, G(d.rs1) - G(d.rs2));
    } else if (mn == "S_MUL_INT") {
      set(d.rd, G(d.rs1) * G(d.rs2));
    } else if (mn == "S_LUI_INT") {
      set(d.rd, d.imm22 << 12);
    } else if (mn == "S_LD_INT") {
      set(d.rd, std::nullopt);
    } else if (mn == "C_SET_ADDR_REG") {
      addr[d.rd] = (uint64_t{G(d.rs1)} << 32) | G(d.rs2);
    } else if (mn == "C_SET_SCALE_REG") {
      scale = G(d.rd);
    } else if (mn == "C_SET_STRIDE_REG") {
      stride = G(d.rd);
    } else if (mn == "C_LOOP_START") {
      set(d.rd, d.imm22);
      loop_body.push_back(pc + 1);
    } else if (mn == "C_LOOP_END") {
      if (G(d.rd) > 1) {
        set(d.rd, G(d.rd) - 1);
        next = loop_body.back();
      } else {
        set(d.rd, 0);
        loop_body.pop_back();
      }
    } else if (mn == "H_PREFETCH_V" || mn == "H_PREFETCH_M") {
      const bool v = mn == "H_PREFETCH_V";
      const uint64_t rows = static_cast<uint64_t>(m.get(v ? "HBM_V_ROWS" : "HBM_M_ROWS"));
      const uint64_t len = static_cast<uint64_t>(v ? m.vlen() : m.mlen());
      const uint64_t s = d.r3 == 1 ? stride : len;
      for (uint64_t i = 0; i < rows; ++i) {
        const uint64_t o = G(d.rs1) + i * s;
        const uint64_t codes = addr[d.rs2] + o, scales = addr[d.rs2] + scale + o / mxb;
        if ((byte >= codes && byte < codes + len) || (byte >= scales && byte < scales + len / mxb))
          return Reader{index, pc, mn};
      }
    }
    pc = next;
  }
  return std::nullopt;
}

workload::BuiltProgram readme_program() {
  const auto& spec = isa::Spec::builtin();
  return workload::build_moe_layer(spec, spec.preset("default"), test::readme_demo_options());
}

size_t nonempty_lines(const std::string& s) {
  std::istringstream in(s);
  std::string line;
  size_t n = 0;
  while (std::getline(in, line))
    if (!line.empty()) ++n;
  return n;
}

/// A command that must exit 2 with one stderr line containing `expect`.
struct UsageCase {
  std::string args, expect;
};

void expect_usage_errors(const std::vector<UsageCase>& cases, const fs::path& dir) {
  for (const auto& c : cases) {
    BOOST_TEST_CONTEXT(c.args) {
      const auto r = moesim_cli(c.args, dir);
      BOOST_TEST(r.code == 2);
      BOOST_TEST(r.err.find(c.expect) != std::string::npos, "stderr: " << r.err);
      BOOST_TEST(nonempty_lines(r.err) == 1u, "stderr: " << r.err);
    }
  }
}

/// The config.json of testbenches/models/`model` with key `key`'s value replaced by `value`
/// (the text up to the next ',', newline or '}').
std::string config_with(const std::string& model, const std::string& key,
                        const std::string& value) {
  std::string s =
      slurp(fs::path(MOESIM_SOURCE_DIR) / "testbenches/models" / (model + ".config.json"));
  const size_t at = s.find("\"" + key + "\"");
  BOOST_REQUIRE(at != std::string::npos);
  return s.replace(at, s.find_first_of(",\n}", at) - at, "\"" + key + "\": " + value);
}

}  // namespace

BOOST_AUTO_TEST_CASE(cli_readme_cosim_passes) {
  const fs::path dir = workdir("readme");
  const auto r = moesim_cli("cosim " + kReadmeFlags + " --report r.json --vcd t.vcd", dir);
  BOOST_TEST(r.code == 0);
  BOOST_TEST(r.out.find("VERDICT: EQUAL") != std::string::npos);
  const json rep = read_json(dir / "r.json");
  const auto problems = report_problems(rep);
  for (const auto& p : problems) BOOST_ERROR(p);
  BOOST_TEST(rep["program"]["static_instructions"].get<uint64_t>() ==
             readme_program().program.size());
  BOOST_TEST(rep["preset"]["model"]["num_local_experts"] == 32);
  BOOST_TEST(rep["preset"]["model"]["num_experts_per_tok"] == 4);

  // The report checks reject broken reports.
  auto broken = rep;
  broken["stages"]["expert_projection"]["rtl_cycles"] =
      broken["stages"]["expert_projection"]["rtl_cycles"].get<uint64_t>() + 1;
  BOOST_TEST(!report_problems(broken).empty());
  broken = rep;
  broken["cycles_match"] = false;
  BOOST_TEST(!report_problems(broken).empty());
  broken = rep;
  broken.erase("first_divergence");
  BOOST_TEST(!report_problems(broken).empty());

  // The VCD parses strictly and ends in the output store on both engines.
  std::ifstream vin(dir / "t.vcd");
  const test::VcdData vcd = test::read_vcd_strict(vin);
  BOOST_TEST(vcd.timescale == "1ns");
  BOOST_TEST(vcd.last_time == rep["total_cycles"]["golden"].get<uint64_t>());
  for (const char* scope : {"golden", "rtl"}) {
    const auto& stage = vcd.changes.at(vcd.id_of(std::string(scope) + ".stage"));
    BOOST_TEST(stage.back().second == "non_moe");
    BOOST_TEST(stage.size() > 12u);
  }
  BOOST_TEST(vcd.changes.at(vcd.id_of("mismatch")).back().second == "0");
  BOOST_TEST(fs::exists(dir / "t.stages.filter"));
  BOOST_TEST(slurp(dir / "t.stages.filter").find("7 expert_projection") != std::string::npos);
}

// On the queued default the first divergence is the reader's transfer record, numbered by its
// DMA instruction's retire (docs/overlap.md section 6).
BOOST_AUTO_TEST_CASE(cli_planted_divergence_names_the_first_reader) {
  const auto& spec = isa::Spec::builtin();
  const auto& preset = spec.preset("default");
  const auto b = readme_program();
  const workload::Layout& L = b.layout;
  // A code byte of the last token in the last hidden block of X.
  const uint64_t byte = L.x.base + (L.tokens - 1) * L.hidden + (L.hidden - preset.vlen()) + 5;
  const auto expect = first_hbm_reader(spec, preset, b.program, byte);
  BOOST_REQUIRE(expect.has_value());
  BOOST_TEST(expect->mnemonic == "H_PREFETCH_V");
  BOOST_TEST(expect->index > 0u);  // not trivially the first instruction

  const fs::path dir = workdir("planted");
  const auto r = moesim_cli(
      "cosim " + kReadmeFlags +
          " --report r.json --vcd t.vcd --flip-bit rtl:hbm:" + std::to_string(byte) + ":0",
      dir);
  BOOST_TEST(r.code == 1);
  const json rep = read_json(dir / "r.json");
  BOOST_TEST(rep["outputs_bit_exact"] == false);
  BOOST_TEST(rep["verdict"] == "MISMATCH");
  const json& d = rep["first_divergence"];
  BOOST_REQUIRE(d.is_object());
  BOOST_TEST(d["index"].get<uint64_t>() == expect->index);
  BOOST_TEST(d["pc"].get<uint32_t>() == expect->pc);
  BOOST_TEST(d["mnemonic"] == expect->mnemonic);
  BOOST_TEST(d["disassembly"].get<std::string>().rfind(expect->mnemonic, 0) == 0u);
  BOOST_TEST(d["fields"] == json::array({"mems"}));
  BOOST_TEST(d["golden"]["pc"] == expect->pc);
  BOOST_TEST(d["rtl"]["pc"] == expect->pc);
  BOOST_TEST(d["history"]["golden"].size() == std::min<uint64_t>(8, expect->index));
  BOOST_TEST(report_problems(rep).size() > 0u);  // the pass checks reject this report
  // The console names it too.
  const std::string line = "FIRST DIVERGENCE at retire #" + std::to_string(expect->index) +
                           ": pc " + std::to_string(expect->pc);
  BOOST_TEST(r.out.find(line) != std::string::npos);
  BOOST_TEST(r.out.find(expect->mnemonic) != std::string::npos);
  // The VCD marks the mismatch at that instruction's start cycle.
  std::ifstream vin(dir / "t.vcd");
  const test::VcdData vcd = test::read_vcd_strict(vin);
  const auto& mm = vcd.changes.at(vcd.id_of("mismatch"));
  BOOST_TEST(mm.back().second == "1");
  BOOST_TEST(mm.back().first == d["golden"]["start_cycle"].get<uint64_t>());
}

BOOST_AUTO_TEST_CASE(cli_asm_disasm_round_trip) {
  const fs::path dir = workdir("roundtrip");
  const auto b = readme_program();
  std::ofstream(dir / "p.asm") << b.asm_text;
  BOOST_REQUIRE(moesim_cli("asm p.asm -o p.hex", dir).code == 0);
  const auto dis = moesim_cli("disasm p.hex", dir);
  BOOST_REQUIRE(dis.code == 0);
  std::ofstream(dir / "q.asm") << dis.out;
  BOOST_REQUIRE(moesim_cli("asm q.asm -o q.hex", dir).code == 0);
  BOOST_TEST(slurp(dir / "p.hex") == slurp(dir / "q.hex"));
  BOOST_TEST(slurp(dir / "p.stages") == slurp(dir / "q.stages"));
  // The CLI's words are the builder's words.
  const isa::Program p = isa::read_program(dir / "p.hex");
  BOOST_TEST(p.words == b.program.words);
  BOOST_TEST(p.stages == b.program.stages);
  // The round-trip comparison sees a changed stage: disassemble a program whose side table
  // differs in one line and the text differs.
  std::string stages = slurp(dir / "p.stages");
  const size_t at = stages.find("gather");
  BOOST_REQUIRE(at != std::string::npos);
  stages.replace(at, 6, "non_moe");
  fs::copy_file(dir / "p.hex", dir / "r.hex");
  std::ofstream(dir / "r.stages") << stages;
  BOOST_TEST(moesim_cli("disasm r.hex", dir).out != dis.out);
}

BOOST_AUTO_TEST_CASE(cli_profile_and_reference) {
  const fs::path dir = workdir("profile");
  const auto& spec = isa::Spec::builtin();
  const auto r = moesim_cli("cosim " + kReadmeFlags + " --profile p.json --reference", dir);
  BOOST_TEST(r.code == 0);
  BOOST_TEST(r.out.find("stage profiles (instructions, cycles, HBM bytes read and written per "
                        "stage): golden and rtl equal") != std::string::npos);
  BOOST_TEST(r.out.find("independent reference (hardware rounding) vs golden: bit-exact") !=
             std::string::npos);
  BOOST_TEST(r.out.find("independent reference (hardware rounding) vs rtl: bit-exact") !=
             std::string::npos);
  BOOST_TEST(r.out.find("MXFP8 output (HBM)") != std::string::npos);
  BOOST_TEST(r.out.find("stage profiles equal, independent reference bit-exact") !=
             std::string::npos);
  const json p = read_json(dir / "p.json");
  BOOST_TEST(p["profiles_equal"] == true);
  BOOST_REQUIRE(p["profiles"].size() == 2u);
  json rtl_as_golden = p["profiles"][1];
  BOOST_TEST(rtl_as_golden["engine"] == "rtl");
  rtl_as_golden["engine"] = "golden";
  BOOST_TEST(p["profiles"][0] == rtl_as_golden);
  const json& g = p["profiles"][0];
  BOOST_TEST(g["stages"].size() == spec.stages().size());
  for (const auto& s : spec.stages()) {
    BOOST_REQUIRE(g["stages"].contains(s.name));
    BOOST_TEST(g["stages"][s.name]["group"] == s.group);
    BOOST_TEST(g["groups"][s.group]["stages"].dump().find('"' + s.name + '"') != std::string::npos);
  }
  BOOST_TEST(g["total"]["hbm_bytes_written"].get<uint64_t>() > 0u);
  BOOST_TEST(g["note"].get<std::string>().find("routed lowering") != std::string::npos);

  // run: the golden model alone gives the golden profile of the co-simulation.
  const auto rr =
      moesim_cli("run --engine golden " + kReadmeFlags + " --profile q.json --reference", dir);
  BOOST_TEST(rr.code == 0);
  const json q = read_json(dir / "q.json");
  BOOST_REQUIRE(q["profiles"].size() == 1u);
  BOOST_TEST(q["profiles"][0] == g);

  // A lowering bug both engines run alike: golden and RTL agree, the reference does not.
  const auto bad = moesim_cli(
      "cosim --model gpt-oss-120b --tokens 4 --hidden 64 --intermediate 64 "
      "--plant-fault topk-shift-7 --reference --quiet",
      dir);
  BOOST_TEST(bad.code == 1);
  BOOST_TEST(bad.out.find("outputs bit-exact, cycles match, stage profiles equal, independent "
                          "reference FAILS") != std::string::npos);
  const auto unknown = moesim_cli("cosim " + kReadmeFlags + " --plant-fault nope", dir);
  BOOST_TEST(unknown.code == 2);
  BOOST_TEST(unknown.err.find("unknown --plant-fault 'nope' (known: topk-shift-7") !=
             std::string::npos);
}

BOOST_AUTO_TEST_CASE(cli_run_dumps_the_same_outputs_on_both_engines) {
  const fs::path dir = workdir("run");
  std::array<std::string, 2> acc, hbm;
  const std::array<const char*, 2> engines = {"golden", "rtl"};
  for (size_t i = 0; i < 2; ++i) {
    const auto r = moesim_cli(
        std::string("run --engine ") + engines[i] + " " + kReadmeFlags + " --dump " + engines[i],
        dir);
    BOOST_TEST(r.code == 0);
    BOOST_TEST(r.out.find("non_moe") != std::string::npos);  // stage table
    const json m = read_json(dir / engines[i] / "manifest.json");
    BOOST_TEST(m["accumulator"]["shape"] == json::array({4, 128}));
    acc[i] = slurp(dir / engines[i] / "accumulator_bf16.bin");
    hbm[i] = slurp(dir / engines[i] / "output_hbm_mxfp8.bin");
    BOOST_TEST(acc[i].size() == 2u * 4 * 128);
    BOOST_TEST(hbm[i].size() == 4u * 128 + 4 * 128 / 8);
  }
  BOOST_TEST(acc[0] == acc[1]);
  BOOST_TEST(hbm[0] == hbm[1]);
  BOOST_TEST(acc[0] != std::string(acc[0].size(), '\0'));
}

BOOST_AUTO_TEST_CASE(cli_cosim_of_an_assembled_program_agrees_on_a_trap) {
  const fs::path dir = workdir("trap");
  std::ofstream(dir / "trap.asm") << "; @stage=router_topk\nS_ADDI_INT gp1, gp0, 7\n"
                                     "C_LOOP_START gp2, 2\nS_ADDI_INT gp1, gp1, 1\n"
                                     "C_LOOP_END gp2\n; @stage=non_moe\nC_LOOP_END gp2\n";
  const auto r = moesim_cli("cosim --program trap.asm --report r.json", dir);
  BOOST_TEST(r.code == 0);  // both engines agree, trap included
  const json rep = read_json(dir / "r.json");
  BOOST_TEST(rep["trap"]["name"] == "loop_underflow");
  BOOST_TEST(rep["trap"]["pc"] == 4);
  BOOST_TEST(rep["instructions"] == 7);  // 6 retired + the trapping C_LOOP_END
  BOOST_TEST(rep["program"]["source"] == "file");
  BOOST_TEST(r.out.find("both engines trapped: loop_underflow at pc 4") != std::string::npos);
  // Alone, a trapping program is a failed run.
  BOOST_TEST(moesim_cli("run --engine golden --program trap.asm", dir).code == 1);
}

BOOST_AUTO_TEST_CASE(cli_yaml_html_and_trace_json_outputs_agree) {
  const fs::path dir = workdir("outputs");
  const auto r = moesim_cli(
      "cosim --tokens 2 --hidden 64 --intermediate 64 --quiet --report r.yaml "
      "--html r.html --trace-json t.json",
      dir);
  BOOST_TEST(r.code == 0);
  // YAML report: the same keys as the JSON one; stage cycles add up to the totals.
  const YAML::Node y = YAML::LoadFile((dir / "r.yaml").string());
  BOOST_TEST(y["verdict"].as<std::string>() == "EQUAL");
  const uint64_t total = y["total_cycles"]["golden"].as<uint64_t>();
  uint64_t sum = 0;
  std::vector<std::string> ran;
  for (const auto& kv : y["stages"]) {
    sum += kv.second["golden_cycles"].as<uint64_t>();
    ran.push_back(kv.first.as<std::string>());
  }
  BOOST_TEST(sum == total);
  BOOST_TEST(y["units"].size() == isa::Spec::builtin().units().size());
  // HTML: one chart group per stage that ran, nothing fetched from the network.
  const std::string html = slurp(dir / "r.html");
  for (const auto& st : ran)
    BOOST_TEST(html.find("data-stage-bar=\"" + st + "\"") != std::string::npos, st);
  size_t bars = 0;
  for (size_t at = html.find("data-stage-bar="); at != std::string::npos;
       at = html.find("data-stage-bar=", at + 1))
    ++bars;
  BOOST_TEST(bars == ran.size());
  BOOST_TEST(html.find("http") == std::string::npos);
  // Trace JSON: per engine, the stage slices cover exactly the run.
  const json t = read_json(dir / "t.json");
  std::map<int, uint64_t> stage_us;
  for (const auto& e : t["traceEvents"])
    if (e["ph"] == "X" && e["tid"] == 1) stage_us[e["pid"].get<int>()] += e["dur"].get<uint64_t>();
  BOOST_TEST(stage_us.size() == 2u);
  for (const auto& [pid, us] : stage_us) BOOST_TEST(us == total, "pid " << pid);
}

BOOST_AUTO_TEST_CASE(cli_trace_rtl_writes_an_fst_gtkwave_reads) {
  const fs::path dir = workdir("trace_rtl");
  const auto r = moesim_cli(
      "cosim --tokens 1 --hidden 64 --intermediate 64 --quiet --trace-rtl t.fst "
      "--report r.json",
      dir);
  BOOST_TEST(r.code == 0);
  BOOST_REQUIRE(fs::exists(dir / "t.fst"));
  const uint64_t total = read_json(dir / "r.json")["total_cycles"]["rtl"];
  // GTKWave's own converter reads it back; the RTL's top-level ports are in it and the time
  // covers the run (one cycle = 1 ns, dumped at both clock phases).
  const std::string cmd = "cd '" + dir.string() + "' && fst2vcd t.fst > t.vcd 2> fst2vcd.err";
  BOOST_REQUIRE_MESSAGE(std::system(cmd.c_str()) == 0,
                        "fst2vcd (package gtkwave) failed: " << slurp(dir / "fst2vcd.err"));
  const std::string vcd = slurp(dir / "t.vcd");
  for (const char* sig : {" clk_i ", " rst_ni ", " retire_valid_o ", " trap_valid_o "})
    BOOST_TEST(vcd.find(sig) != std::string::npos, "FST lacks" << sig);
  BOOST_TEST(vcd.find("$timescale\n\t100ps") != std::string::npos);  // 10 ticks per cycle
  const size_t last = vcd.rfind("\n#");
  BOOST_REQUIRE(last != std::string::npos);
  const uint64_t end_ns = std::stoull(vcd.substr(last + 2)) / 10;
  BOOST_TEST(end_ns >= total);
  BOOST_TEST(end_ns <= total + 4);  // reset and the final halt cycle
  // Golden has no RTL signals to trace; an unwritable path is refused before simulating.
  const auto g = moesim_cli(
      "run --engine golden --tokens 1 --hidden 64 --intermediate 64 "
      "--trace-rtl g.fst",
      dir);
  BOOST_TEST(g.code == 2);
  BOOST_TEST(g.err.find("--trace-rtl needs --engine rtl") != std::string::npos);
  const auto d =
      moesim_cli("cosim --tokens 1 --hidden 64 --intermediate 64 --trace-rtl no/such/t.fst", dir);
  BOOST_TEST(d.code == 2);
  BOOST_TEST(d.err.find("--trace-rtl") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(cli_progress_line_only_on_a_terminal) {
  const fs::path dir = workdir("progress");
  const std::string args = "cosim " + kReadmeFlags + " --quiet";
  // Not a terminal: stderr stays empty.
  const auto plain = moesim_cli(args, dir);
  BOOST_TEST(plain.code == 0);
  BOOST_TEST(plain.err.empty());
  // A pseudo-terminal (util-linux `script`) and --progress-after 0: the line (carriage return,
  // erase to the end of the line, percent of the counted instructions, stage, rates, elapsed,
  // ETA: docs/progress.md) appears from the first update, whatever the machine's speed, and is
  // erased before the results are printed.
  // A 200-column terminal: the line is cut to the terminal's width (cli_debug's
  // cli_progress_line_fits_a_narrow_terminal), here it fits whole.
  const std::string cmd = "cd '" + dir.string() + "' && script -qec \"stty cols 200; '" +
                          std::string(MOESIM_BIN) + "' " + args +
                          " --progress-after 0\" /dev/null > tty.txt";
  BOOST_REQUIRE(std::system(cmd.c_str()) == 0);
  const std::string tty = slurp(dir / "tty.txt");
  const std::string start = "\r\033[K[moesim] ";
  const size_t at = tty.find(start);
  BOOST_REQUIRE_MESSAGE(at != std::string::npos, "no progress line in: " << tty);
  const std::string line = tty.substr(at, tty.find('\r', at + 1) - at);
  for (const char* part :
       {"% ETA ", " elapsed, stage ", " instr, ", " cycles | ", " instr/s, ", " cycles/s"})
    BOOST_TEST(line.find(part) != std::string::npos, line);
  // The total counted from the loop structure is what the run retires.
  const size_t slash = line.find('/'), instr = line.find(" instr, ");
  BOOST_REQUIRE((slash != std::string::npos && instr > slash));
  const std::string total = line.substr(slash + 1, instr - slash - 1);
  BOOST_TEST(tty.find("(" + total + " instructions compared") != std::string::npos, total);
  // The last line is erased ("\r\033[K" with nothing after it) before the verdict.
  const size_t last = tty.rfind(start), verdict = tty.find("VERDICT: EQUAL");
  BOOST_TEST(verdict > last);
  BOOST_TEST(tty.rfind("\r\033[K", verdict) > last);
}

BOOST_AUTO_TEST_CASE(cli_conformance_fails_on_a_wrong_expectation_and_on_gaps) {
  const fs::path dir = workdir("conformance");
  // A private suite: one real case, copied.
  const fs::path src = fs::path(MOESIM_SOURCE_DIR) / "testbenches/conformance/S_ADD_INT";
  fs::create_directories(dir / "suite/S_ADD_INT");
  for (const char* f : {"wrap.asm", "wrap.yaml"})
    fs::copy_file(src / f, dir / "suite/S_ADD_INT" / f);
  const std::string run = "conformance --suite suite --engine golden";
  // With a filter it passes; alone it fails on every opcode the suite does not cover.
  auto r = moesim_cli(run + " --filter S_ADD_INT --junit j.xml", dir);
  BOOST_TEST(r.code == 0);
  BOOST_TEST(r.out.find("PASS golden S_ADD_INT/wrap") != std::string::npos);
  BOOST_TEST(slurp(dir / "j.xml").find("failures=\"0\"") != std::string::npos);
  r = moesim_cli(run, dir);
  BOOST_TEST(r.code == 1);
  BOOST_TEST(r.out.find("opcodes 3/") != std::string::npos);  // S_LUI_INT, S_ADDI_INT, S_ADD_INT
  BOOST_TEST(r.out.find("CONFORMANCE: FAIL") != std::string::npos);
  // A wrong expected value fails the case with the register named, also in the JUnit file.
  std::string yaml = slurp(dir / "suite/S_ADD_INT/wrap.yaml");
  const size_t at = yaml.find("gp3: 1");
  BOOST_REQUIRE(at != std::string::npos);
  yaml.replace(at, 6, "gp3: 2");
  std::ofstream(dir / "suite/S_ADD_INT/wrap.yaml", std::ios::trunc) << yaml;
  r = moesim_cli(run + " --filter S_ADD_INT --junit j.xml", dir);
  BOOST_TEST(r.code == 1);
  BOOST_TEST(r.out.find("FAIL golden S_ADD_INT/wrap") != std::string::npos);
  BOOST_TEST(r.out.find("gp3: expected 2 (0x2), got 1 (0x1)") != std::string::npos);
  BOOST_TEST(slurp(dir / "j.xml").find("failures=\"1\"") != std::string::npos);
  // Case files: integers decimal or 0x hex, keys once, regions inside their memory (exit 2
  // naming file:line and the key).
  auto case_error = [&](const std::string& body, const std::string& what) {
    std::ofstream(dir / "suite/S_ADD_INT/wrap.yaml", std::ios::trunc) << body;
    const auto e = moesim_cli(run, dir);
    BOOST_TEST(e.code == 2, body);
    BOOST_TEST(e.err.find(what) != std::string::npos, e.err);
  };
  const std::string ex = "expect: {retired: 6, cycles: 6}\n";
  case_error(ex + "init: {vram: [{row: 144115188075855873, fill: 1.0}]}\n",
             "wrap.yaml:2: init.vram[0].row: 144115188075855873 is past the end of vram");
  case_error(ex + "init: {vram: [{row: 1, fill: 1.0, rows: 100000000000}]}\n",
             "wrap.yaml:2: init.vram[0].rows: 100000000000 is larger than 8191");
  case_error(ex + "init: {int_sram: [{addr: 4095, u32: [1, 2]}]}\n",
             "wrap.yaml:2: init.int_sram[0]: units [4095, 4097) run past the end of int_sram");
  case_error("expect: {retired: 6, cycles: 6, retired: 7}\n",
             "wrap.yaml:1: expect.retired: written twice");
  case_error(
      "expect: {retired: 6e0, cycles: 6}\n",
      "wrap.yaml:1: expect.retired: expected a non-negative integer (decimal or 0x hex), got "
      "'6e0'");
  case_error(
      "expect: {retired: 6, cycles: 6, trap: {cause: address_misaligned, pc: 3, cycle: 9}}\n",
      "wrap.yaml:1: expect.trap.cycle: unknown key (cause, pc)");
  case_error(
      ex + "init: {vram: [{row: 10, fill: 1.0, rows: 4}, {row: 12, fill: 2.0}]}\n",
      "wrap.yaml:2: init.vram: regions overlap: init.vram[0] and init.vram[1] share unit 12");
  // dma_queue: 0 to machine.yaml's runtime maximum of DMA_QUEUE (3); expect.stalls: the four
  // causes of docs/overlap.md section 3.
  case_error("dma_queue: 4\n" + ex, "wrap.yaml:1: dma_queue: 4 is larger than 3");
  case_error("dma_queue: -1\n" + ex,
             "wrap.yaml:1: dma_queue: expected a non-negative integer (decimal or 0x hex), got "
             "'-1'");
  case_error("expect: {retired: 6, cycles: 6, stalls: {raw: 0, rar: 1}}\n",
             "wrap.yaml:1: expect.stalls.rar: unknown stall cause (raw, waw, war, queue_full)");
  std::ofstream(dir / "suite/S_ADD_INT/wrap.yaml", std::ios::trunc) << yaml;
  // expect.stalls is checked cause by cause (the serial machine never stalls).
  const std::string right =
      "expect: {retired: 6, cycles: 6, regs: {gp1: 0xFFFFFFFF, gp2: 2, "
      "gp3: 1, gp4: 2}, stalls: ";
  std::ofstream(dir / "suite/S_ADD_INT/wrap.yaml", std::ios::trunc)
      << right << "{raw: 0, queue_full: 0}}\n";
  r = moesim_cli(run + " --filter S_ADD_INT", dir);
  BOOST_TEST(r.code == 0, r.out);
  std::ofstream(dir / "suite/S_ADD_INT/wrap.yaml", std::ios::trunc)
      << right << "{raw: 1, war: 0}}\n";
  r = moesim_cli(run + " --filter S_ADD_INT", dir);
  BOOST_TEST(r.code == 1);
  BOOST_TEST(r.out.find("stalls.raw: expected 1, got 0") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("stalls.war") == std::string::npos, r.out);
  std::ofstream(dir / "suite/S_ADD_INT/wrap.yaml", std::ios::trunc) << yaml;
  // A filter std::regex cannot compile without overflowing the stack is refused by its length.
  r = moesim_cli(run + " --filter " + std::string(100000, 'a'), dir);
  BOOST_TEST(r.code == 2);
  BOOST_TEST(r.err.find("--filter: 100000 characters; at most 1000") != std::string::npos, r.err);
  // Bad selections and files are errors (exit 2), never a green run of nothing.
  r = moesim_cli(run + " --filter NO_SUCH", dir);
  BOOST_TEST(r.code == 2);
  BOOST_TEST(r.err.find("--filter 'NO_SUCH' matches no case") != std::string::npos);
  fs::remove(dir / "suite/S_ADD_INT/wrap.yaml");
  r = moesim_cli(run, dir);
  BOOST_TEST(r.code == 2);
  BOOST_TEST(r.err.find("wrap.asm: no wrap.yaml beside it") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(cli_outputs_must_be_distinct_files) {
  const fs::path dir = workdir("distinct");
  const std::string run = "cosim --tokens 1 --hidden 64 --intermediate 64 ";
  auto r = moesim_cli(run + "--html same.out --trace-json same.out", dir);
  BOOST_TEST(r.code == 2);
  BOOST_TEST(r.err.find("--trace-json same.out and --html same.out name the same file") !=
             std::string::npos);
  r = moesim_cli(run + "--html t.gtkw --vcd t.vcd", dir);
  BOOST_TEST(r.code == 2);
  BOOST_TEST(r.err.find("the .gtkw of --vcd t.vcd and --html t.gtkw name the same file") !=
             std::string::npos);
  BOOST_TEST(!fs::exists(dir / "same.out"));  // refused before simulating
}

BOOST_AUTO_TEST_CASE(cli_bad_input_exits_2_naming_the_problem) {
  const fs::path dir = workdir("bad");
  std::ofstream(dir / "bad.asm") << "; a comment\nS_ADDI_INT gp1, gp0, 5\nV_ADD_VV gp1, gp2\n";
  std::ofstream(dir / "badstage.asm") << "S_ADDI_INT gp1, gp0, 5\n; @stage=no_such_stage\n"
                                         "S_ADDI_INT gp1, gp0, 5\n";
  std::ofstream(dir / "empty.asm") << "; only a comment\n";
  // Groups of softmax scores with topk_method greedy (HF ignores them; only
  // group_limited_greedy applies them), which moesim refuses; and more routed experts than
  // MAX_TOPK_EXPERTS, refused naming the key.
  std::ofstream(dir / "glg.json") << R"({"model_type": "deepseek_v2", "hidden_size": 5120,
      "moe_intermediate_size": 1536, "n_routed_experts": 160, "num_experts_per_tok": 6,
      "n_group": 8, "topk_group": 3, "topk_method": "greedy"})";
  std::ofstream(dir / "wide.json") << R"({"model_type": "deepseek_v2", "hidden_size": 5120,
      "moe_intermediate_size": 1536, "n_routed_experts": 1024, "num_experts_per_tok": 6,
      "norm_topk_prob": true})";
  // 1000 x 1000 iterations: ends long after 100 instructions (the limit must stop it).
  std::ofstream(dir / "loop.asm") << "C_LOOP_START gp1, 1000\nC_LOOP_START gp2, 1000\n"
                                     "S_ADDI_INT gp3, gp3, 1\nC_LOOP_END gp2\nC_LOOP_END gp1\n";
  const std::vector<UsageCase> cases = {
      {"cosim --model no-such-model",
       "--model no-such-model: not a model preset (known: gpt-oss-20b"},
      {"cosim --model gpt-oss-20b --hidden 100", "--hidden 100 is not a positive multiple of VLEN"},
      {"cosim --intermediate 96 --hidden 128", "--intermediate 96"},
      {"cosim --hidden 2880", "MRAM_TILES=16"},
      {"cosim --machine no-such-machine --hidden 128 --intermediate 128", "unknown --machine"},
      {"cosim --tokens many", "--tokens"},
      {"cosim --hidden 128 --intermediate 128 --flip-bit rtl:hbm:1", "--flip-bit"},
      {"run --engine cpu", "--engine"},
      {"asm bad.asm -o bad.hex", "bad.asm:3:"},
      {"asm badstage.asm -o bad.hex", "badstage.asm:2:"},
      {"asm missing.asm", "missing.asm"},
      {"disasm missing.hex", "missing.hex"},
      {"frobnicate", "frobnicate"},
      {"", "subcommand"},
      {"cosim --program bad.asm", "bad.asm:3:"},
      {"cosim --program trap.asm --model gpt-oss-20b", "excludes"},
      {"cosim --hidden 128 --intermediate 128 --seed -5", "--seed"},
      {"cosim --hidden 128 --intermediate 128 --history -1", "--history"},
      {"cosim --hidden 128 --intermediate 128 --report nodir/r.json",
       "--report nodir/r.json: directory nodir does not exist"},
      {"cosim --hidden 128 --intermediate 128 --vcd .", "--vcd .: is a directory"},
      {"asm .", ".: is a directory"},
      {"cosim --program empty.asm", "--program empty.asm: no instructions"},
      {"cosim --program loop.asm --max-instructions 100",
       "the program did not end within --max-instructions 100"},
      {"run --engine golden --program loop.asm --max-instructions 100",
       "the program did not end within --max-instructions 100"},
      {"cosim --model glg.json --hidden 64 --intermediate 64",
       "n_group 8 / topk_group 3 (topk_method 'greedy')"},
      {"cosim --model wide.json --hidden 64 --intermediate 64",
       "--model wide.json: n_routed_experts 1024: V_TOPK cannot select 6 of 1024 experts"},
      {"cosim --model qwen3-30b-a3b --shared --hidden 64 --intermediate 64",
       "--shared: model qwen3-30b-a3b has no shared expert"},
      {"cosim --hidden 64 --intermediate 64 --lowering sideways", "--lowering"},
      {"cosim --hidden 64 --intermediate 64 --topk-policy hardwired", "--topk-policy"},
      {"cosim --model missing.json", "--model missing.json: no such file"},
      {"cosim --hidden 64 --intermediate 64 --progress-after nan",
       "--progress-after: must be a finite number of seconds >= 0, got nan"},
      {"run --engine golden --progress-after -1", "--progress-after"},
      {"conformance --suite no-such-dir", "--suite no-such-dir: not a directory"},
      {"conformance --machine no-such-machine", "unknown --machine 'no-such-machine'"},
  };
  expect_usage_errors(cases, dir);
  // And a good assembly file assembles (the cases above fail for their stated reason).
  std::ofstream(dir / "good.asm") << "S_ADDI_INT gp1, gp0, 5\n";
  BOOST_TEST(moesim_cli("asm good.asm -o good.hex", dir).code == 0);
}

BOOST_AUTO_TEST_CASE(cli_config_json_shared_and_utilisation_in_the_report) {
  const fs::path dir = workdir("config_json");
  const std::string config =
      std::string(MOESIM_SOURCE_DIR) + "/testbenches/models/qwen1.5-moe-a2.7b.config.json";
  const auto r = moesim_cli("run --engine golden --model " + config +
                                " --shared --tokens 2 --hidden 64 --intermediate 64"
                                " --lowering expert --report r.json",
                            dir);
  BOOST_TEST(r.code == 0);
  BOOST_TEST(r.out.find("Matrix-unit utilisation") != std::string::npos);
  BOOST_TEST(r.out.find("shared I_s=256 gated") != std::string::npos);
  const json j = read_json(dir / "r.json");
  BOOST_REQUIRE(j["utilisation"].is_array());
  BOOST_REQUIRE_EQUAL(j["utilisation"].size(), 2u);
  BOOST_TEST(j["utilisation"][0]["part"] == "routed");
  BOOST_TEST(j["utilisation"][0]["lowering"] == "expert");
  BOOST_TEST(j["utilisation"][1]["part"] == "shared");
  BOOST_TEST(j["utilisation"][1]["weight_bytes"].get<uint64_t>() > 0u);
  BOOST_TEST(j["preset"]["model"]["model_type"] == "qwen2_moe");
  BOOST_TEST(j["preset"]["topk_select"] == 60);  // norm_topk_prob false: the full softmax
  BOOST_TEST(j["preset"]["shared_intermediate"] == 256);
}

namespace {

std::string first_difference(const json& a, const json& b) {
  return moesim::test::first_difference(a, b, "the snapshot", "this run");
}

}  // namespace

BOOST_AUTO_TEST_CASE(cli_reports_equal_the_committed_snapshots) {
  // testbenches/cosim/snapshots/*.json are the --report documents of these two runs as written
  // by moesim at fbaa7c1 (before sim/ was split into layers), without the two timing fields and
  // the provenance, plus the fields that say whether the outputs and the unwritten state are
  // equal (final_state_equal, final_state.outputs, per space outputs_equal and
  // unwritten_differing_bytes), added with the divergence report's outputs/unwritten split. Any
  // change to what a report says about these runs (verdict, instructions, cycles per stage and
  // unit, profiles, utilisation, final state) shows here by its JSON pointer; a change that is
  // meant must update the snapshot in the same commit and say why. fbaa7c1's machine was serial:
  // the runs are on `serial` (`default` with DMA_QUEUE 0, docs/overlap.md section 9).
  const struct {
    const char* name;
    std::string flags;
  } runs[] = {{"demo", "--machine serial " + kReadmeFlags},
              {"shared",
               "--machine serial --model qwen1.5-moe-a2.7b --shared --tokens 2 --hidden "
               "64 --intermediate 64"}};
  for (const auto& run : runs) {
    BOOST_TEST_CONTEXT(run.name) {
      const fs::path dir = workdir(std::string("snapshot_") + run.name);
      const Result r = moesim_cli("cosim " + run.flags + " --report r.json --quiet", dir);
      BOOST_TEST(r.code == 0);
      json got = read_json(dir / "r.json");
      // Timings and the provenance (command line, version, git hash, digests:
      // docs/reproducibility.md) change from run to run and build to build.
      for (const char* varying : {"simulation_time_s", "wall_time_s", "provenance"}) {
        BOOST_TEST(got.contains(varying));
        got.erase(varying);
      }
      const json want = read_json(fs::path(MOESIM_SOURCE_DIR) / "testbenches/cosim/snapshots" /
                                  (std::string(run.name) + ".json"));
      BOOST_TEST(first_difference(want, got).empty(),
                 "report differs from the snapshot at " << first_difference(want, got));
    }
  }
}

BOOST_AUTO_TEST_CASE(cli_outputs_never_overwrite_inputs_and_bad_values_are_refused) {
  // Each case once crashed, overwrote an input, wrote a short file with exit 0, or ran on a
  // value it silently changed (a hostile-input review of the CLI): now exit 2 with one line
  // naming the flag, file or key, and the inputs left as they were.
  const fs::path dir = workdir("hostile");
  const std::string prog = "S_ADDI_INT gp1, gp0, 1\n";
  std::ofstream(dir / "a.asm") << prog;
  std::ofstream(dir / "long.asm") << [] {
    std::string s;
    for (int i = 0; i < 65537; ++i) s += "S_ADDI_INT gp1, gp1, 1\n";
    return s;
  }();
  const std::string mixtral =
      slurp(fs::path(MOESIM_SOURCE_DIR) / "testbenches/models/mixtral-8x7b.config.json");
  std::ofstream(dir / "m.json") << mixtral;
  std::ofstream(dir / "dup.json") << config_with("mixtral-8x7b", "num_local_experts",
                                                 "8,\n  \"num_local_experts\": 4");
  std::ofstream(dir / "zero_experts.json") << config_with("mixtral-8x7b", "num_local_experts", "0");
  std::ofstream(dir / "zero_hidden.json") << config_with("mixtral-8x7b", "hidden_size", "0");
  std::ofstream(dir / "rsf.json") << config_with("deepseek-v3", "routed_scaling_factor", "1e300");
  std::ofstream(dir / "limit.json") << config_with("gpt-oss-20b", "swiglu_limit", "-7.0");
  fs::create_symlink("/dev/full", dir / "full.json");
  const std::vector<UsageCase> cases = {
      {"asm a.asm -o a.asm", "-o a.asm: would overwrite the input a.asm"},
      {"asm a.asm -o a.stages", "the program and its stage table would both be a.stages"},
      {"asm a.asm -o /dev/full", "/dev/full: write failed"},
      {"cosim --program a.asm --report full.json", "--report full.json: write failed"},
      {"cosim --program a.asm --report r.txt", "--report r.txt: name the report .json, .yaml"},
      {"cosim --program a.asm --profile p.txt", "--profile p.txt: the profile is JSON"},
      {"cosim --model m.json --hidden 64 --intermediate 64 --report m.json",
       "--report m.json: would overwrite the input --model m.json"},
      {"cosim --program long.asm",
       "--program long.asm: 65537 instructions do not fit IMEM_WORDS = 65536"},
      {"run --engine golden --hidden 64 --intermediate 64 --seed 18446744073709551616",
       "--seed: is out of range (at most 18446744073709551615)"},
      {"cosim --model dup.json --hidden 64 --intermediate 64",
       "--model dup.json:17: key 'num_local_experts' appears twice in one object"},
      {"cosim --model zero_experts.json --hidden 64 --intermediate 64",
       "key 'num_local_experts': must be at least 1, got 0"},
      {"cosim --model zero_hidden.json --intermediate 64",
       "key 'hidden_size': must be at least 1, got 0"},
      {"cosim --model rsf.json --hidden 64 --intermediate 64",
       "key 'routed_scaling_factor': must be a positive number a BF16 constant can hold"},
      {"cosim --model limit.json --hidden 64 --intermediate 64",
       "key 'swiglu_limit': must be a positive number"},
  };
  expect_usage_errors(cases, dir);
  BOOST_TEST(slurp(dir / "a.asm") == prog);
  BOOST_TEST(slurp(dir / "m.json") == mixtral);
  BOOST_TEST(!fs::exists(dir / "a.stages"));
  // The same flags with good values run (the cases fail for their stated reason).
  BOOST_TEST(moesim_cli("asm a.asm -o a.hex", dir).code == 0);
  // A program that retires exactly --max-instructions instructions has ended ("did not end",
  // exit 2, before); one more instruction than the limit has not.
  std::ofstream(dir / "two.asm") << "S_ADDI_INT gp1, gp0, 1\nS_ADDI_INT gp2, gp0, 2\n";
  for (const char* cmd : {"cosim", "run --engine golden", "run --engine rtl"}) {
    BOOST_TEST_CONTEXT(cmd) {
      BOOST_TEST(
          moesim_cli(std::string(cmd) + " --program two.asm --max-instructions 2 --quiet", dir)
              .code == 0);
      BOOST_TEST(
          moesim_cli(std::string(cmd) + " --program two.asm --max-instructions 1 --quiet", dir)
              .code == 2);
    }
  }
  BOOST_TEST(moesim_cli("cosim --model m.json --hidden 64 --intermediate 64 --tokens 1 "
                        "--report r.json --quiet",
                        dir)
                 .code == 0);
}

BOOST_AUTO_TEST_CASE(cli_conformance_junit_agrees_with_the_exit_code) {
  // A malformed case and coverage gaps fail the run; JUnit must say so too (it once listed 44
  // passed and 0 failed for a run that exited 1, and a malformed case left no XML at all). The
  // good case still runs.
  const fs::path dir = workdir("junit");
  fs::create_directories(dir / "suite/S_ADD_INT");
  std::ofstream(dir / "suite/S_ADD_INT/good.asm") << "S_ADDI_INT gp1, gp0, 2\n";
  std::ofstream(dir / "suite/S_ADD_INT/good.yaml")
      << "expect: {retired: 1, cycles: 1, regs: {gp1: 2}}\n";
  std::ofstream(dir / "suite/S_ADD_INT/bad.asm") << "S_ADDI_INT gp1, gp0, 1\nV_BOGUS\n";
  std::ofstream(dir / "suite/S_ADD_INT/bad.yaml") << "expect: {retired: 1, cycles: 1}\n";
  const auto r = moesim_cli("conformance --engine golden --suite suite --junit j.xml --quiet", dir);
  BOOST_TEST(r.code == 2);
  BOOST_TEST(r.err.find("bad.asm:2:1: unknown mnemonic 'V_BOGUS'") != std::string::npos, r.err);
  BOOST_TEST(r.out.find("golden: 1 passed, 0 failed of 1 cases") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("not covered (") == std::string::npos, "--quiet lists no gaps: " << r.out);
  const std::string xml = slurp(dir / "j.xml");
  BOOST_TEST(xml.find("errors=\"1\"") != std::string::npos, xml.substr(0, 300));
  BOOST_TEST(xml.find("skipped=\"0\"") != std::string::npos);
  BOOST_TEST(xml.find("time=\"") != std::string::npos);
  BOOST_TEST(xml.find("failures=\"0\"") == std::string::npos, "gaps are failing testcases");
  BOOST_TEST(xml.find("<error message=\"suite/S_ADD_INT/bad.asm:2:1") != std::string::npos);
  BOOST_TEST(xml.find("classname=\"conformance.golden.coverage\" name=\"M_MM\"") !=
             std::string::npos);
  // Without the malformed case the gaps alone fail the run (exit 1), and JUnit has failures.
  fs::remove(dir / "suite/S_ADD_INT/bad.asm");
  fs::remove(dir / "suite/S_ADD_INT/bad.yaml");
  const auto g = moesim_cli("conformance --engine golden --suite suite --junit j.xml --quiet", dir);
  BOOST_TEST(g.code == 1);
  const std::string xml2 = slurp(dir / "j.xml");
  BOOST_TEST(xml2.find("errors=\"0\"") != std::string::npos);
  BOOST_TEST(xml2.find("failures=\"0\"") == std::string::npos);
  // With --filter gaps do not fail: exit 0 and no failing testcase.
  const auto f = moesim_cli(
      "conformance --engine golden --suite suite --filter good --junit j.xml --quiet", dir);
  BOOST_TEST(f.code == 0);
  BOOST_TEST(slurp(dir / "j.xml").find("failures=\"0\"") != std::string::npos);
}
