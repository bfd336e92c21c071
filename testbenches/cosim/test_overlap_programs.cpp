// Programs that use the DMA queue (docs/workloads.md, Programs that use the queue): with
// DMA_QUEUE 0 the builder emits today's serial program; with a queue it double-buffers the weight
// tiles, which changes timing and never values (docs/overlap.md section 4).
#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <map>
#include <regex>
#include <string>

#include "moesim/cosim/engines.hpp"
#include "moesim/isa/engine.hpp"
#include "moesim/isa/spec.hpp"
#include "moesim/workload/builder.hpp"
#include "moesim_test/cli.hpp"
#include "moesim_test/readme_demo.hpp"

using namespace moesim;
namespace fs = std::filesystem;

// The README demo (gpt-oss-20b, 4 tokens, H = I = 128) on the `serial` preset (`default` with
// DMA_QUEUE 0): the serial program, 29,729 instructions retired in 106,570 cycles (README.md and
// docs/overlap.md section 9, measured on `default` before it had a queue). The builder's program
// snapshots (workload.builder_output_matches_digests_of_main_6df0e6d) pin its words.
BOOST_AUTO_TEST_CASE(overlap_programs_serial_demo_is_todays) {
  const auto& spec = isa::Spec::builtin();
  const auto& preset = spec.preset("serial");
  BOOST_REQUIRE(preset.get("DMA_QUEUE") == 0);
  const auto b = workload::build_moe_layer(spec, preset, test::readme_demo_options());
  BOOST_TEST(b.asm_text.find("double-buffered") == std::string::npos);
  auto engine = cosim::make_golden_engine(spec, preset);
  engine->load(b.program, b.image);
  for (;;) {
    isa::RetireRecord r;
    if (!engine->step(r)) break;
    BOOST_REQUIRE(!r.trap.has_value());
  }
  BOOST_TEST(engine->retired() == 29729u);
  BOOST_TEST(engine->cycles() == 106570u);
}

// The same layer with DMA_QUEUE 0 and 2 (`moesim run --dma-queue`: the golden model takes its
// queue depth at construction, once per process): the queued program is the double-buffered one
// and finishes earlier, and every file of the layer's --dump (the BF16 accumulator rows and the
// MXFP8 output stored to HBM) is byte-identical, in both routed lowerings and with a shared
// expert.
BOOST_AUTO_TEST_CASE(overlap_programs_queued_output_equals_serial) {
  const fs::path dir = test::workdir("overlap_programs");
  for (const char* layer : {"--model gpt-oss-20b", "--model gpt-oss-20b --lowering expert",
                            "--model qwen1.5-moe-a2.7b --shared",
                            "--model qwen1.5-moe-a2.7b --shared --lowering expert"}) {
    BOOST_TEST_CONTEXT(layer) {
      std::map<std::string, std::string> files[2];
      long long cycles[2] = {-1, -1};
      std::string asm_text[2];
      for (int q : {0, 2}) {
        const std::string d = "q" + std::to_string(q);
        fs::remove_all(dir / d);
        const auto r = test::moesim_cli(
            std::string("run --quiet --engine golden --tokens 3 --hidden 128 --intermediate 128 ") +
                layer + " --dma-queue " + std::to_string(q) + " --dump " + d + " --asm-out " + d +
                ".asm",
            dir);
        BOOST_REQUIRE(r.code == 0);
        std::smatch m;
        if (std::regex_search(r.out, m,
                              std::regex("golden: [0-9]+ instructions retired, ([0-9]+) cycles")))
          cycles[q / 2] = std::stoll(m[1]);
        for (const auto& f : fs::directory_iterator(dir / d))
          files[q / 2][f.path().filename().string()] = test::slurp(f.path());
        asm_text[q / 2] = test::slurp(dir / (d + ".asm"));
      }
      BOOST_TEST(asm_text[0].find("double-buffered") == std::string::npos);
      BOOST_TEST(asm_text[1].find("double-buffered") != std::string::npos);
      BOOST_TEST(cycles[0] > 0);
      BOOST_TEST(cycles[1] > 0);
      BOOST_TEST(cycles[1] < cycles[0]);
      BOOST_TEST(files[0].count("accumulator_bf16.txt") == 1u);
      BOOST_TEST(files[0].size() == files[1].size());
      for (const auto& [name, bytes] : files[0])
        BOOST_TEST((files[1][name] == bytes), name << " differs between DMA_QUEUE 0 and 2");
    }
  }
}
