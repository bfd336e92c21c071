// Program files (.hex + .stages side table) and retire-record helpers (normalize, FNV-1a).
#define BOOST_TEST_MODULE program
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "moesim/isa/assembler.hpp"
#include "moesim/isa/program.hpp"
#include "moesim/isa/trace.hpp"

using namespace moesim::isa;
namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path = fs::temp_directory_path() / ("moesim_prog_test_" + std::to_string(::getpid()));
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
};

std::string slurp(const fs::path& p) {
  std::ifstream f(p);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

std::string read_error(const fs::path& p) {
  try {
    read_program(p);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

BOOST_AUTO_TEST_CASE(write_read_round_trip) {
  TempDir tmp;
  const Spec& spec = Spec::builtin();
  Program p = assemble(spec,
                       "S_ADDI_INT gp1, gp0, 7\n; @stage=gather\nC_SET_TOPK_REG gp7\n"
                       "; @stage=non_moe\nS_ADD_INT gp1, gp1, gp1\n",
                       "p.asm");
  fs::path hex = tmp.path / "p.hex";
  write_program(p, hex);
  BOOST_TEST(slurp(hex) == "0x0001C062\n0x000001F8\n0x00004461\n");
  BOOST_TEST(slurp(tmp.path / "p.stages") == "other\ngather\nnon_moe\n");
  Program q = read_program(hex);
  BOOST_TEST(q.words == p.words);
  BOOST_TEST(q.stages == p.stages);
  BOOST_TEST(q.source == hex.string());
  BOOST_TEST((q.lines == std::vector<uint32_t>{1, 2, 3}));

  // Work tags travel in the side table after the stage name.
  Program t = assemble(spec,
                       "; @pair=2,0,int[8]\nS_ADDI_INT gp1, gp0, 7\n; @pair=-\n"
                       "; @stage=gather\nC_SET_TOPK_REG gp7\n",
                       "t.asm");
  write_program(t, hex);
  BOOST_TEST(slurp(tmp.path / "p.stages") == "other @pair=2,0,int[8]\ngather\n");
  Program u = read_program(hex);
  BOOST_TEST((u.work == t.work));
  BOOST_TEST(u.stages == t.stages);

  // Without the side table every instruction is `other`; words without 0x are accepted.
  fs::remove(tmp.path / "p.stages");
  std::ofstream(hex) << "1062\n\n  0x000001f8  \n";
  Program r = read_program(hex);
  BOOST_TEST((r.words == std::vector<uint32_t>{0x1062, 0x1F8}));
  BOOST_TEST((r.stages == std::vector<uint8_t>{0, 0}));
  BOOST_TEST((r.lines == std::vector<uint32_t>{1, 3}));
}

BOOST_AUTO_TEST_CASE(read_errors_name_file_and_line) {
  TempDir tmp;
  fs::path hex = tmp.path / "b.hex";
  std::ofstream(hex) << "0x00000001\n0xZZ\n";
  BOOST_TEST(read_error(hex) == hex.string() + ":2: expected one 32-bit hex word, got '0xZZ'");
  std::ofstream(hex) << "0x100000000\n";
  BOOST_TEST(read_error(hex) ==
             hex.string() + ":1: expected one 32-bit hex word, got '0x100000000'");
  std::ofstream(hex) << "0x00000001\n0x00000002\n";
  std::ofstream(tmp.path / "b.stages") << "gather\nbogus\n";
  BOOST_TEST(read_error(hex) == (tmp.path / "b.stages").string() + ":2: unknown stage 'bogus'");
  std::ofstream(tmp.path / "b.stages") << "gather\n";
  BOOST_TEST(read_error(hex) ==
             (tmp.path / "b.stages").string() + ": 1 stages for 2 words of " + hex.string());
  std::ofstream(tmp.path / "b.stages") << "gather @pair=1,x,3\ngather\n";
  BOOST_TEST(read_error(hex) == (tmp.path / "b.stages").string() +
                                    ":1: slot 'x' is not a non-negative decimal number");
  std::ofstream(tmp.path / "b.stages") << "gather\ngather\nother\n";
  BOOST_TEST(read_error(hex) == (tmp.path / "b.stages").string() +
                                    ":3: more stages than the 2 words of " + hex.string());
  BOOST_TEST(read_error(tmp.path / "missing.hex") ==
             (tmp.path / "missing.hex").string() + ": no such file");
  BOOST_TEST(read_error(tmp.path) == tmp.path.string() + ": is a directory");
  Program bad;
  bad.words = {1};
  bad.stages = {200};
  BOOST_CHECK_THROW(write_program(bad, tmp.path / "w.hex"), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(normalize_sorts_merges_and_drops_zero_registers) {
  RetireRecord r;
  r.regs = {{RegFile::Fp, 2, 0x3F80}, {RegFile::Gp, 3, 1}, {RegFile::Gp, 0, 9},
            {RegFile::Gp, 3, 2},      {RegFile::Fp, 0, 5}, {RegFile::Ctrl, 1, 4}};
  r.mems = {{Space::Hbm, 10, 20, 0}, {Space::Vram, 5, 6, 7},  {Space::Vram, 0, 2, 0},
            {Space::Vram, 2, 4, 0},  {Space::Hbm, 15, 30, 0}, {Space::IntSram, 3, 3, 0}};
  normalize(r);
  std::vector<RegWrite> regs{{RegFile::Gp, 3, 2}, {RegFile::Fp, 2, 0x3F80}, {RegFile::Ctrl, 1, 4}};
  BOOST_TEST((r.regs == regs));
  std::vector<MemWrite> mems{
      {Space::Vram, 0, 4, 0}, {Space::Vram, 5, 6, 7}, {Space::Hbm, 10, 30, 0}};
  BOOST_TEST((r.mems == mems));
}

BOOST_AUTO_TEST_CASE(fnv1a64_reference_vectors) {
  BOOST_TEST(fnv1a64(nullptr, 0) == 0xcbf29ce484222325ull);
  const uint8_t a[] = {'a'};
  BOOST_TEST(fnv1a64(a, 1) == 0xaf63dc4c8601ec8cull);
  const uint8_t foobar[] = {'f', 'o', 'o', 'b', 'a', 'r'};
  BOOST_TEST(fnv1a64(foobar, 6) == 0x85944171f73967e8ull);
  BOOST_TEST(fnv1a64(foobar + 3, 3, fnv1a64(foobar, 3)) == fnv1a64(foobar, 6));
}

BOOST_AUTO_TEST_CASE(names) {
  BOOST_TEST(std::string(space_name(Space::FpSram)) == "fp_sram");
  BOOST_TEST(std::string(space_name(Space::Hbm)) == "hbm");
  BOOST_TEST(std::string(regfile_name(RegFile::Addr)) == "addr");
  BOOST_TEST(kAllSpaces.size() == 5u);
}
