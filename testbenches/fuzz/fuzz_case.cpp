// libFuzzer harness: the conformance case loader (conformance::load_suite). The input is the
// case's .yaml; its .asm is a fixed two-instruction program. A malformed case must come back with
// Case::error set (a message naming the file); any exception, a crash or a sanitizer report is a
// finding.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>

#include "fuzz_common.hpp"
#include "moesim/conformance/conformance.hpp"
#include "scratch_dir.hpp"

using namespace moesim;
namespace fs = std::filesystem;

// The case loader links the engines, and so libsystemc.so, which calls sc_main; no SystemC
// simulation runs here.
extern "C" int sc_main(int, char**) { return 0; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const isa::Spec& spec = isa::Spec::builtin();
  const fs::path& suite = fuzz::scratch_dir("case");
  static const bool ready = [&] {
    fs::create_directories(suite / "S_ADDI_INT");
    std::ofstream(suite / "S_ADDI_INT" / "c.asm")
        << "S_ADDI_INT gp1, gp0, 5\nS_ADDI_INT gp2, gp1, 1\n";
    return true;
  }();
  (void)ready;
  fuzz::write_bytes(suite / "S_ADDI_INT" / "c.yaml", data, size);
  const std::vector<conformance::Case> cases = conformance::load_suite(spec, suite);
  if (cases.size() != 1)
    fuzz::fail("load_suite returned " + std::to_string(cases.size()) + " cases");
  const conformance::Case& c = cases[0];
  if (!c.error.empty() && c.error.find("c.yaml") == std::string::npos)
    fuzz::fail("case error does not name the file: " + c.error);
  return 0;
}
