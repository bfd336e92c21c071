// libFuzzer harness: the config.json loader of the workload layer (workload::load_model_config).
// Bad JSON or values must give a UsageError naming the file; any other exception, a crash or a
// sanitizer report is a finding.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

#include "fuzz_common.hpp"
#include "moesim/workload/presets.hpp"
#include "scratch_dir.hpp"

using namespace moesim;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::filesystem::path path = fuzz::scratch_dir("config") / "config.json";
  fuzz::write_bytes(path, data, size);
  try {
    const workload::ModelPreset m = workload::load_model_config(path.string());
    if (m.hidden == 0 || m.intermediate == 0 || m.experts == 0 || m.top_k == 0)
      fuzz::fail("load_model_config accepted a zero size, expert count or k");
  } catch (const UsageError& e) {
    if (std::string(e.what()).find(path.string()) == std::string::npos)
      fuzz::fail(std::string("UsageError does not name the file: ") + e.what());
  }
  return 0;
}
