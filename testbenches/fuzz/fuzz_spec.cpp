// libFuzzer harness: the isa.yaml / machine.yaml / stages.yaml loader (isa::Spec::load). The
// first input byte picks the file the rest of the input replaces (0: isa.yaml, 1: machine.yaml,
// 2: stages.yaml, mod 3); the other two are the real ones. Bad YAML must give an isa::SpecError;
// any other exception, a crash or a sanitizer report is a finding.
#include <cstddef>
#include <cstdint>
#include <filesystem>

#include "moesim/isa/spec.hpp"
#include "scratch_dir.hpp"

using namespace moesim;
namespace fs = std::filesystem;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const char* const kFiles[] = {"isa.yaml", "machine.yaml", "stages.yaml"};
  const fs::path& dir = fuzz::scratch_dir("spec");
  if (size < 1) return 0;
  static int last = -1;
  const int which = data[0] % 3;
  if (which != last) {
    for (const char* f : kFiles)
      fs::copy_file(fs::path(MOESIM_ISA_SPEC_DIR) / f, dir / f,
                    fs::copy_options::overwrite_existing);
    last = which;
  }
  fuzz::write_bytes(dir / kFiles[which], data + 1, size - 1);
  try {
    const isa::Spec s = isa::Spec::load(dir);
    (void)s;
  } catch (const isa::SpecError&) {
  }
  return 0;
}
