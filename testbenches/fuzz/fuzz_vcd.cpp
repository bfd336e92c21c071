// libFuzzer harness: the strict VCD reader of the waveform tests (testbenches/waveforms/
// vcd_reader.hpp), which the tests use to check every VCD moesim writes. Bad VCD text must give
// std::runtime_error "line N: ..."; any other exception, a crash or a sanitizer report is a
// finding.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "../waveforms/vcd_reader.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    const moesim::test::VcdData d = moesim::test::read_vcd_strict(in);
    (void)d;
  } catch (const std::runtime_error& e) {
    if (std::string(e.what()).rfind("line ", 0) != 0 &&
        std::string(e.what()).find("line") == std::string::npos)
      moesim::fuzz::fail(std::string("VCD error without a line: ") + e.what());
  }
  return 0;
}
