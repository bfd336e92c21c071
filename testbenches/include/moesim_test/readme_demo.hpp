// The README demo's layer (scripts/demo.sh: gpt-oss-20b, 4 tokens, H = I = 128, seed 1), for the
// tests that build it in-process (testbenches/cosim/test_cli.cpp, test_overlap_programs.cpp).
#pragma once

#include "moesim/workload/builder.hpp"
#include "moesim/workload/presets.hpp"

namespace moesim::test {

inline workload::BuildOptions readme_demo_options() {
  workload::BuildOptions o;
  o.model = &workload::find_model("gpt-oss-20b");
  o.tokens = 4;
  o.hidden = 128;
  o.intermediate = 128;
  o.seed = 1;
  return o;
}

}  // namespace moesim::test
