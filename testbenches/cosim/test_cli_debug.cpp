// The debug loop of the `moesim` command line, run as a subprocess: your own program
// on your own memories (--image, --image-bin, --random-image, --dump with --program), the trace
// log, disasm's pc and word columns, the progress lines, and the provenance of reports. Every
// expected value is written by hand or computed by a tool outside moesim (sha256sum).
#include <boost/test/unit_test.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "moesim_test/cli.hpp"

namespace fs = std::filesystem;
using moesim::test::CliResult;
using moesim::test::moesim_cli;
using moesim::test::slurp;
using moesim::test::workdir;
using nlohmann::json;

namespace {

json read_json(const fs::path& p) {
  std::ifstream in(p);
  BOOST_REQUIRE_MESSAGE(in.good(), "cannot read " << p);
  return json::parse(in);
}

bool has(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

/// Adds VRAM rows 0 and 1 into row 2 (element addresses 0, 64, 128 on the default machine,
/// VLEN 64).
const char* kAddAsm =
    "S_ADDI_INT gp1, gp0, 0\n"
    "S_ADDI_INT gp2, gp0, 64\n"
    "S_ADDI_INT gp3, gp0, 128\n"
    "V_ADD_VV gp3, gp1, gp2, 0\n";

/// Row 0 all 1.5, row 1 all -0.25: row 2 becomes 1.25 = BF16 0x3FA0 everywhere.
const char* kAddYaml =
    "init:\n"
    "  vram:\n"
    "    - {row: 0, fill: 1.5}\n"
    "    - {row: 1, fill: -0.25}\n";

/// The 64 BF16 elements of VRAM row `row` in a dumped vram.bin.
std::vector<uint16_t> vram_row(const std::string& bytes, size_t row) {
  std::vector<uint16_t> v;
  for (size_t e = 0; e < 64; ++e) {
    const size_t at = 2 * (row * 64 + e);
    v.push_back(static_cast<uint16_t>(static_cast<uint8_t>(bytes.at(at)) |
                                      static_cast<uint8_t>(bytes.at(at + 1)) << 8));
  }
  return v;
}

/// `sha256sum FILE`'s digest, from coreutils (not moesim's code).
std::string sha256sum(const fs::path& f) {
  const std::string cmd = "sha256sum '" + f.string() + "'";
  std::FILE* p = popen(cmd.c_str(), "r");
  BOOST_REQUIRE(p != nullptr);
  char buf[128] = {};
  const size_t n = std::fread(buf, 1, 64, p);
  pclose(p);
  BOOST_REQUIRE(n == 64);
  return std::string(buf, 64);
}

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

}  // namespace

BOOST_AUTO_TEST_CASE(cli_program_runs_on_its_image_file) {
  // Planted: make_workload skipping the --image files left row 2 at 0 + 0 = 0 and failed here.
  const fs::path dir = workdir("image_yaml");
  std::ofstream(dir / "add.asm") << kAddAsm;
  std::ofstream(dir / "add.yaml") << kAddYaml;
  CliResult r = moesim_cli(
      "run --engine golden --program add.asm --image add.yaml --dump out --report r.json", dir);
  BOOST_REQUIRE(r.code == 0);
  const std::string vram = slurp(dir / "out/vram.bin");
  BOOST_REQUIRE(vram.size() == 8192u * 128);  // VRAM_ROWS rows of 2 * VLEN bytes
  for (uint16_t x : vram_row(vram, 2)) BOOST_TEST(x == 0x3FA0);
  for (uint16_t x : vram_row(vram, 0)) BOOST_TEST(x == 0x3FC0);  // 1.5
  for (uint16_t x : vram_row(vram, 3)) BOOST_TEST(x == 0);
  const json m = read_json(dir / "out/manifest.json");
  BOOST_TEST(m["spaces"]["hbm"]["bytes"] == 67108864u);
  BOOST_TEST(m["spaces"]["vram"]["reload"] == "--image-bin vram=out/vram.bin");
  // The same on both engines, with every output a --program run can write.
  r = moesim_cli(
      "cosim --program add.asm --image add.yaml --dump both --report c.json --vcd t.vcd "
      "--trace-log t.log",
      dir);
  BOOST_TEST(r.code == 0);
  BOOST_TEST(has(r.out, "VERDICT: EQUAL"));
  for (const char* e : {"golden", "rtl"})
    for (uint16_t x : vram_row(slurp(dir / "both" / e / "vram.bin"), 2)) BOOST_TEST(x == 0x3FA0);
  BOOST_TEST(fs::file_size(dir / "t.vcd") > 0u);
  BOOST_TEST(read_json(dir / "c.json")["verdict"] == "EQUAL");
  // A conformance case file is an image file: V_ADD_VV/values runs as a cosim program.
  const fs::path cases = fs::path(MOESIM_SOURCE_DIR) / "testbenches/conformance/V_ADD_VV";
  r = moesim_cli("cosim --program '" + (cases / "values.asm").string() + "' --image '" +
                     (cases / "values.yaml").string() + "' --quiet",
                 dir);
  BOOST_TEST(r.code == 0);
}

BOOST_AUTO_TEST_CASE(cli_program_runs_on_binary_and_random_images) {
  // Planted: --image-bin loaded at offset 0 whatever @OFFSET said, and row 2 was 1.5 + 1.5.
  const fs::path dir = workdir("image_bin");
  std::ofstream(dir / "add.asm") << kAddAsm;
  // Row 1 only, as raw bytes at byte offset 128 (row 1 of VLEN 64 BF16): -0.25 = 0xBE80.
  {
    std::ofstream b(dir / "row1.bin", std::ios::binary);
    for (int e = 0; e < 64; ++e) b << static_cast<char>(0x80) << static_cast<char>(0xBE);
    std::ofstream y(dir / "row0.yaml");
    y << "init: {vram: [{row: 0, fill: 1.5}]}\n";
  }
  CliResult r = moesim_cli(
      "run --engine rtl --program add.asm --image row0.yaml --image-bin vram=row1.bin@128 "
      "--dump out",
      dir);
  BOOST_REQUIRE(r.code == 0);
  for (uint16_t x : vram_row(slurp(dir / "out/vram.bin"), 2)) BOOST_TEST(x == 0x3FA0);
  // --image-bin comes after --image: the same bytes at row 0 replace the 1.5s (-0.25 - 0.25).
  r = moesim_cli(
      "run --engine golden --program add.asm --image row0.yaml --image-bin vram=row1.bin "
      "--image-bin vram=row1.bin@0x80 --dump out2",
      dir);
  BOOST_REQUIRE(r.code == 0);
  for (uint16_t x : vram_row(slurp(dir / "out2/vram.bin"), 2)) BOOST_TEST(x == 0xBF00);  // -0.5
  // --random-image: the same seed gives the same memories, another seed others, and the
  // values follow docs/images.md. On `tiny` (16 MB of HBM): MLEN = VLEN = 16, MX_BLOCK 8.
  const std::string tiny = "run --engine golden --machine tiny --program add.asm --random-image ";
  BOOST_REQUIRE(moesim_cli(tiny + "5 --dump s5a", dir).code == 0);
  BOOST_REQUIRE(moesim_cli(tiny + "5 --dump s5b", dir).code == 0);
  BOOST_REQUIRE(moesim_cli(tiny + "6 --dump s6", dir).code == 0);
  for (const char* s : {"vram.bin", "mram.bin", "fp_sram.bin", "int_sram.bin", "hbm.bin"}) {
    BOOST_TEST(slurp(dir / "s5a" / s) == slurp(dir / "s5b" / s), s);
    BOOST_TEST(slurp(dir / "s5a" / s) != slurp(dir / "s6" / s), s);
  }
  const std::string fp = slurp(dir / "s5a/fp_sram.bin");
  BOOST_REQUIRE(fp.size() == 2048u * 2);
  bool neg = false, pos = false;
  for (size_t i = 0; i < fp.size(); i += 2) {
    const unsigned v = static_cast<uint8_t>(fp[i]) | static_cast<uint8_t>(fp[i + 1]) << 8;
    const unsigned exp = (v >> 7) & 0xFF;
    BOOST_TEST((exp >= 123 && exp <= 130), "fp_sram word " << i / 2 << " exponent " << exp);
    (v & 0x8000 ? neg : pos) = true;
  }
  BOOST_TEST((neg && pos));
  const std::string is = slurp(dir / "s5a/int_sram.bin");
  size_t nonzero = 0;
  for (size_t i = 0; i < is.size(); i += 4) {
    BOOST_TEST((is[i + 1] == 0 && is[i + 2] == 0 && is[i + 3] == 0), "int_sram word " << i / 4);
    nonzero += is[i] != 0;
  }
  BOOST_TEST(nonzero > is.size() / 4 / 2);
  const std::string mram = slurp(dir / "s5a/mram.bin");
  BOOST_REQUIRE(mram.size() == 8u * 16 * (16 + 2));  // MRAM_TILES * MLEN rows of 16 + 16/8
  for (size_t row = 0; row < mram.size() / 18; ++row) {
    for (size_t c = 0; c < 16; ++c)
      BOOST_TEST((static_cast<uint8_t>(mram[row * 18 + c]) & 0x7F) != 0x7F);  // no E4M3 NaN
    for (size_t c = 16; c < 18; ++c) {
      const unsigned s = static_cast<uint8_t>(mram[row * 18 + c]);
      BOOST_TEST((s >= 123 && s <= 131));
    }
  }
  // The seed is in the report.
  r = moesim_cli("cosim --program add.asm --random-image 5 --report r.json --quiet", dir);
  BOOST_TEST(r.code == 0);
  BOOST_TEST(read_json(dir / "r.json")["seed"] == 5);
  BOOST_TEST(read_json(dir / "r.json")["provenance"]["seed"] == 5);
}

BOOST_AUTO_TEST_CASE(cli_bad_images_name_file_line_and_key) {
  // Planted: ImageReader::where() without the line made every file:line check fail.
  const fs::path dir = workdir("image_errors");
  std::ofstream(dir / "add.asm") << kAddAsm;
  const auto expect2 = [&](const std::string& args, const std::string& what) {
    const CliResult r = moesim_cli("cosim --program add.asm " + args, dir);
    BOOST_TEST(r.code == 2, args);
    BOOST_TEST(has(r.err, what), args << ": " << r.err);
    BOOST_TEST(std::count(r.err.begin(), r.err.end(), '\n') == 1, r.err);
    BOOST_TEST(r.err.rfind("moesim: error: ", 0) == 0u, r.err);
  };
  std::ofstream(dir / "bf16.yaml") << "init:\n  vram:\n    - {row: 0, fill: 1.5}\n"
                                      "  fp_sram:\n    - {addr: 0, bf16: [1.0,\n      0.1]}\n";
  expect2("--image bf16.yaml", "--image bf16.yaml:6: init.fp_sram[0].bf16[1]: 0.1 is not exactly");
  std::ofstream(dir / "key.yaml") << "init:\n  vram: []\n  sram: []\n";
  expect2("--image key.yaml", "key.yaml:3: init.sram: unknown memory space");
  std::ofstream(dir / "top.yaml") << "machine: default\nimage:\n  vram: []\n";
  expect2("--image top.yaml", "top.yaml:2: image: unknown key");
  std::ofstream(dir / "mach.yaml") << "machine: tiny\ninit: {}\n";
  expect2("--image mach.yaml", "mach.yaml:1: machine: the image is written for preset 'tiny'");
  std::ofstream(dir / "syntax.yaml") << "init:\n  vram: [\n";
  expect2("--image syntax.yaml", "syntax.yaml:3");
  std::ofstream(dir / "past.yaml") << "init:\n  fp_sram: [{addr: 4095, bf16: [1.0, 2.0]}]\n";
  expect2("--image past.yaml", "past.yaml:2: init.fp_sram[0]: units [4095, 4097) run past the end");
  expect2("--image none.yaml", "--image none.yaml: no such file");
  // Binary images that do not fit, and malformed arguments.
  {
    std::ofstream b(dir / "big.bin", std::ios::binary);
    b << std::string(4096 * 4 + 1, '\0');  // one byte more than INT SRAM's 4096 words
    std::ofstream(dir / "four.bin", std::ios::binary) << "abcd";
  }
  expect2("--image-bin int_sram=big.bin",
          "--image-bin int_sram=big.bin: 16385 bytes at offset 0 do not fit int_sram (16384 bytes");
  expect2("--image-bin hbm=four.bin@67108861",
          "--image-bin hbm=four.bin: 4 bytes at offset 67108861 do not fit hbm (67108864 bytes");
  expect2("--image-bin ram=four.bin", "unknown memory space 'ram'");
  expect2("--image-bin four.bin", "expected SPACE=FILE[@OFFSET]");
  expect2("--image-bin hbm=four.bin@x1", "offset 'x1' is not a non-negative integer");
  expect2("--image-bin hbm=nothere.bin", "--image-bin hbm=nothere.bin: no such file");
  // Image flags need --program; outputs never overwrite an image.
  const CliResult r = moesim_cli("cosim --random-image 1", dir);
  BOOST_TEST(r.code == 2);
  BOOST_TEST(has(r.err, "--random-image requires --program"), r.err);
  std::ofstream(dir / "ok.yaml") << "init: {}\n";
  expect2("--image ok.yaml --report ok.yaml", "would overwrite the input --image ok.yaml");
  expect2("--image-bin hbm=four.bin@4 --html four.bin --quiet",
          "would overwrite the input --image-bin four.bin");
}

BOOST_AUTO_TEST_CASE(cli_trace_log_has_one_line_per_retire) {
  // Planted: TraceLogSink::line() without the register writes, and with the stage of the next
  // instruction, each failed here.
  const fs::path dir = workdir("trace_log");
  std::ofstream(dir / "add.asm") << "; @stage=router_topk\n" << kAddAsm;
  std::ofstream(dir / "add.yaml") << kAddYaml;
  CliResult r =
      moesim_cli("cosim --program add.asm --image add.yaml --trace-log t.log --quiet", dir);
  BOOST_REQUIRE(r.code == 0);
  const std::string g = slurp(dir / "t.golden.log"), t = slurp(dir / "t.rtl.log");
  BOOST_TEST(g == t);  // equal runs, equal logs (headers included)
  std::vector<std::string> rows;
  for (const std::string& l : lines_of(g))
    if (!l.empty() && l[0] != '#') rows.push_back(l);
  BOOST_REQUIRE(rows.size() == 4u);
  // retire, start, end, pc, word, stage, tags, disassembly ; writes. S_ADDI_INT has latency 1
  // and V_ADD_VV VLEN/VECTOR_LANES... the cycles are checked only to increase.
  const std::regex line(
      R"(^ *(\d+) +(\d+) +(\d+) +(\d+)  0x([0-9A-F]{8})  (\S+) +(\S+) +(.*?)(?: ; (.*))?$)");
  uint64_t last_end = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    std::smatch m;
    BOOST_REQUIRE_MESSAGE(std::regex_match(rows[i], m, line), rows[i]);
    BOOST_TEST(std::stoul(m[1]) == i);
    BOOST_TEST(std::stoul(m[4]) == i);  // straight-line: pc = retire
    BOOST_TEST(std::stoull(m[2]) == last_end);
    last_end = std::stoull(m[3]);
    BOOST_TEST(last_end > std::stoull(m[2]));
    BOOST_TEST(m[6] == "router_topk");
    BOOST_TEST(m[7] == "-");
  }
  BOOST_TEST(has(rows[1], "S_ADDI_INT gp2, gp0, 64 ; gp2=0x00000040"), rows[1]);
  BOOST_TEST(has(rows[3], "V_ADD_VV gp3, gp1, gp2, 0 ; vram[2,3)"), rows[3]);
  // The words are the assembler's.
  r = moesim_cli("asm add.asm -o add.hex", dir);
  BOOST_REQUIRE(r.code == 0);
  const auto words = lines_of(slurp(dir / "add.hex"));
  BOOST_REQUIRE(words.size() == 4u);
  for (size_t i = 0; i < 4; ++i) BOOST_TEST(has(rows[i], "  " + words[i] + "  "), rows[i]);
  // The header carries the run and its provenance.
  BOOST_TEST(has(g, "# moesim cosim: add.asm"));
  BOOST_TEST(
      has(g, "# command: moesim cosim --program add.asm --image add.yaml --trace-log t.log"));
  BOOST_TEST(has(g, "# sha256 image add.yaml: " + sha256sum(dir / "add.yaml")));
  // run writes FILE itself; with a planted input fault both logs mark the divergent retire.
  r = moesim_cli("run --engine rtl --program add.asm --image add.yaml --trace-log r.log --quiet",
                 dir);
  BOOST_REQUIRE(r.code == 0);
  BOOST_TEST(has(slurp(dir / "r.log"), rows[3]));
  r = moesim_cli(
      "cosim --program add.asm --image add.yaml --flip-bit rtl:vram:0:0 --trace-log "
      "f.log --quiet",
      dir);
  BOOST_TEST(r.code == 1);
  const std::string fg = slurp(dir / "f.golden.log"), fr = slurp(dir / "f.rtl.log");
  // (The written data differ, not the lines: the log shows ranges, the report the bytes.)
  BOOST_TEST(has(fg, "# first divergence of the co-simulation"));
  BOOST_TEST(has(fr, "# first divergence of the co-simulation"));
}

BOOST_AUTO_TEST_CASE(cli_disasm_has_pc_and_word_columns) {
  // Planted: the column showing the word of the next pc failed here.
  const fs::path dir = workdir("disasm_cols");
  std::ofstream(dir / "add.asm") << kAddAsm;
  BOOST_REQUIRE(moesim_cli("asm add.asm -o add.hex", dir).code == 0);
  const auto words = lines_of(slurp(dir / "add.hex"));
  const CliResult r = moesim_cli("disasm add.hex", dir);
  BOOST_REQUIRE(r.code == 0);
  size_t pc = 0;
  for (const std::string& l : lines_of(r.out)) {
    if (l.empty() || l[0] == ';') continue;
    char want[64];
    std::snprintf(want, sizeof want, " ; %6zu  %s", pc, words.at(pc).c_str());
    BOOST_TEST(has(l, want), l);
    ++pc;
  }
  BOOST_TEST(pc == 4u);
  // asm refuses a .hex (it is a program already), --program takes both.
  BOOST_TEST(moesim_cli("asm add.hex", dir).code == 2);
  BOOST_TEST(moesim_cli("cosim --program add.hex --quiet", dir).code == 0);
}

BOOST_AUTO_TEST_CASE(cli_progress_lines_count_the_loops) {
  // Planted: count_dynamic_instructions() counting C_LOOP_END once per loop (not per iteration)
  // made the last line say ">100% 32 instr, past the 20" and failed here.
  const fs::path dir = workdir("progress_loops");
  // 1 + 3 * (1 + 4 * 2 + 1) + 1 = 32 retires: the outer loop runs its body (the inner loop's
  // start, 4 iterations of S_ADDI_INT and C_LOOP_END, its own C_LOOP_END) 3 times.
  std::ofstream(dir / "loops.asm") << "C_LOOP_START gp1, 3\n"
                                      "C_LOOP_START gp2, 4\n"
                                      "S_ADDI_INT gp3, gp3, 1\n"
                                      "C_LOOP_END gp2\n"
                                      "C_LOOP_END gp1\n"
                                      "S_ADDI_INT gp4, gp0, 7\n";
  CliResult r = moesim_cli(
      "run --engine golden --program loops.asm --progress always --progress-every 0 --report "
      "r.json --quiet",
      dir);
  BOOST_REQUIRE(r.code == 0);
  BOOST_TEST(read_json(dir / "r.json")["instructions"] == 32);
  // stderr is a file here: plain lines, the last one after the run.
  const auto lines = lines_of(r.err);
  BOOST_REQUIRE(!lines.empty());
  BOOST_TEST(lines.back().rfind("[moesim] 100% ", 0) == 0u, lines.back());
  BOOST_TEST(has(lines.back(), "32/32 instr"), lines.back());
  BOOST_TEST(has(lines.back(), "(done)"), lines.back());
  BOOST_TEST(has(lines.back(), "instr/s"));
  BOOST_TEST(has(lines.back(), "cycles/s"));
  BOOST_TEST(has(lines.back(), "elapsed"));
  // never prints nothing; auto on a file prints nothing for a run shorter than --progress-every.
  r = moesim_cli("run --engine golden --program loops.asm --progress never --quiet", dir);
  BOOST_TEST(r.err.empty(), r.err);
  r = moesim_cli("run --engine golden --program loops.asm --quiet", dir);
  BOOST_TEST(r.err.empty(), r.err);
  // The generated layer on the RTL: a line with percent, stage and ETA while it runs.
  r = moesim_cli(
      "cosim --tokens 4 --hidden 64 --intermediate 64 --progress always --progress-every 0 "
      "--quiet",
      dir);
  BOOST_REQUIRE(r.code == 0);
  BOOST_TEST(has(r.err, "% "), r.err);
  BOOST_TEST(has(r.err, ", stage "), r.err);
  BOOST_TEST(has(r.err, "ETA"), r.err);
  BOOST_TEST(has(lines_of(r.err).back(), "100% "), r.err);
  BOOST_TEST(!has(r.err, ">100%"), r.err);
  // The run header comes before the tables.
  r = moesim_cli("run --engine golden --program loops.asm", dir);
  BOOST_TEST(r.out.rfind("moesim run: loops.asm machine=default", 0) == 0u, r.out);
}

BOOST_AUTO_TEST_CASE(cli_progress_line_fits_a_narrow_terminal) {
  // On a terminal the line is redrawn in place with \r; a line wider than the terminal wraps and
  // every redraw then leaves a screen line behind (seen in tmux at 80 columns). Run on a
  // 60-column pseudo-terminal (script(1) records what the terminal receives): every redraw
  // fits, with percent and ETA first, and the end clears the line. --progress-every 0 redraws
  // at every check (each 16 retires), so the run draws many lines however fast the machine is
  // (with the default 250 ms, a run shorter than that drew one line and draws >= 2 failed).
  // Planted: without the cut to the terminal's width the redraws were ~120 characters wide
  // and this failed.
  const fs::path dir = workdir("progress_tty");
  const std::string inner = "stty cols 60; '" + std::string(MOESIM_BIN) +
                            "' cosim --tokens 4 --hidden 64 --intermediate 64 --progress always "
                            "--progress-every 0 --quiet >/dev/null";
  const std::string cmd =
      "cd '" + dir.string() + "' && script -qec \"" + inner + "\" typescript.txt >/dev/null 2>&1";
  BOOST_REQUIRE(std::system(cmd.c_str()) == 0);
  const std::string ts = moesim::test::slurp(dir / "typescript.txt");
  const std::string clear = "\r\033[K";
  const size_t first = ts.find(clear), last = ts.rfind(clear);
  BOOST_REQUIRE(first != std::string::npos);
  size_t draws = 0;
  for (size_t at = first; at < last;) {
    const size_t next = ts.find(clear, at + clear.size());
    const std::string line = ts.substr(at + clear.size(), next - at - clear.size());
    ++draws;
    BOOST_TEST(line.size() < 60u, line);
    BOOST_TEST(line.find('\n') == std::string::npos, line);
    BOOST_TEST(line.rfind("[moesim] ", 0) == 0u, line);
    at = next;
  }
  BOOST_TEST(draws >= 2u, ts);
  // Nothing is drawn after the final clear: the terminal's next line starts empty.
  const std::string rest = ts.substr(last + clear.size());
  BOOST_TEST(rest.substr(0, rest.find('\n')).find("[moesim]") == std::string::npos, rest);
  // The percent and ETA come first, so they survive the cut.
  BOOST_TEST(has(ts, "% ETA "), ts);
}

BOOST_AUTO_TEST_CASE(cli_windowed_runs_word_unwritten_differences_as_a_single_run) {
  // A --flip-bit into an HBM byte the program never reads or writes: a single run and a
  // windowed run both say the outputs are bit-exact and the final state differs outside them
  // (the windowed run once said "outputs NOT bit-exact": its window result files drop the count
  // of unwritten differing bytes).
  const fs::path dir = workdir("windows_unwritten");
  const std::string run =
      "cosim --tokens 4 --hidden 64 --intermediate 64 --flip-bit rtl:hbm:4000000:0 --quiet";
  const std::string want =
      "outputs bit-exact, cycles match, stage profiles equal, final state DIFFERS outside the "
      "outputs (memory the program never wrote)";
  CliResult single = moesim_cli(run, dir);
  BOOST_TEST(single.code == 1);
  BOOST_TEST(has(single.out, "VERDICT: MISMATCH: " + want), single.out);
  CliResult windowed = moesim_cli(run + " --windows 2 --jobs 1 --report w.json", dir);
  BOOST_TEST(windowed.code == 1);
  BOOST_TEST(has(windowed.out, "VERDICT: MISMATCH: " + want), windowed.out);
  BOOST_TEST(!has(windowed.out, "NOT bit-exact"), windowed.out);
  BOOST_TEST(has(windowed.out, "rtl hbm: 1 bytes differ"), windowed.out);
  BOOST_TEST(has(windowed.out, "never written by the program: not an output)"), windowed.out);
  const json j = read_json(dir / "w.json");
  BOOST_TEST(j["outputs_bit_exact"] == true);
  BOOST_TEST(j["final_state_equal"] == false);
  BOOST_TEST(j["final_state"]["memories"]["hbm"]["unwritten_differing_bytes"] == 1);
}

BOOST_AUTO_TEST_CASE(cli_reports_record_their_provenance) {
  // Planted: provenance_json hashing machine.yaml under the name isa.yaml failed here.
  const fs::path dir = workdir("provenance");
  std::ofstream(dir / "add.asm") << kAddAsm;
  std::ofstream(dir / "add.yaml") << kAddYaml;
  std::ofstream(dir / "w.bin", std::ios::binary) << "0123456789";
  CliResult r = moesim_cli(
      "cosim --program add.asm --image add.yaml --image-bin hbm=w.bin@64 --random-image 3 "
      "--report r.yaml --quiet",
      dir);
  BOOST_REQUIRE(r.code == 0);
  // The YAML report carries it as the JSON one does (read back through moesim's JSON run below).
  BOOST_TEST(has(slurp(dir / "r.yaml"), "provenance:"));
  r = moesim_cli(
      "cosim --program add.asm --image add.yaml --image-bin hbm=w.bin@64 --random-image 3 "
      "--report r.json --quiet",
      dir);
  BOOST_REQUIRE(r.code == 0);
  const json p = read_json(dir / "r.json")["provenance"];
  const std::vector<std::string> argv = {
      "moesim",   "cosim",       "--program",    "add.asm",        "--image",
      "add.yaml", "--image-bin", "hbm=w.bin@64", "--random-image", "3",
      "--report", "r.json",      "--quiet"};
  BOOST_TEST(p["command_line"] == argv);
  BOOST_TEST(p["seed"] == 3);
  BOOST_TEST(p["machine"] == "default");
  BOOST_TEST(std::regex_match(p["git_hash"].get<std::string>(),
                              std::regex("([0-9a-f]{40}(-dirty)?|unknown)")),
             p["git_hash"]);
  BOOST_TEST(!p["moesim_version"].get<std::string>().empty());
  const fs::path spec = fs::path(MOESIM_SOURCE_DIR) / "isa_spec";
  for (const char* f : {"isa.yaml", "machine.yaml", "stages.yaml"})
    BOOST_TEST(p["sha256"][f] == sha256sum(spec / f), f);
  BOOST_TEST(p["sha256"]["program add.asm"] == sha256sum(dir / "add.asm"));
  BOOST_TEST(p["sha256"]["image add.yaml"] == sha256sum(dir / "add.yaml"));
  BOOST_TEST(p["sha256"]["image-bin hbm=w.bin@64"] == sha256sum(dir / "w.bin"));
  // The generated layer: the seed and a digest of the program; another seed, the same program.
  r = moesim_cli(
      "run --engine golden --tokens 4 --hidden 64 --intermediate 64 --seed 9 "
      "--report g.json --quiet",
      dir);
  BOOST_REQUIRE(r.code == 0);
  const json g = read_json(dir / "g.json")["provenance"];
  BOOST_TEST(g["seed"] == 9);
  BOOST_TEST(g["sha256"].contains("program (generated: words, then stage codes)"));
}
