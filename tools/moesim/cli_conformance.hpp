// `moesim conformance`: runs the ISA conformance suite (moesim/conformance/conformance.hpp) on one or both
// engines. Internal to the moesim executable.
#pragma once

#include <string>
#include <vector>

#include "moesim/isa/spec.hpp"

namespace moesim::cli {

struct ConformanceFlags {
  std::string engine = "both";  ///< golden | rtl | both
  std::string suite;            ///< empty: the compiled-in testbenches/conformance
  std::string filter;           ///< regex on "<MNEMONIC>/<case>"
  std::string machine = "default";
  std::string junit;  ///< JUnit XML output path
  /// Coverage items (as printed) whose absence does not fail the run, added to the suite's
  /// waivers.yaml. An item that isa.yaml does not declare is an error.
  std::vector<std::string> waive;
  bool quiet = false;  ///< only failures and the summary
};

/// Exit code 0 when every selected case passes on every engine run and (without --filter) the
/// suite covers everything isa.yaml declares but the waived items, and no waiver is stale; 1
/// otherwise. Bad input throws UsageError.
int cmd_conformance(const isa::Spec& spec, const ConformanceFlags& f);

}  // namespace moesim::cli
