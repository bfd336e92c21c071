// A self-contained HTML report of a co-simulation or single-engine run: one file with inline
// CSS and inline SVG, no script and no reference to anything outside the file (no network, no
// fonts), so it can be mailed or attached to a CI run.
//
// Sections: run context (the verdict and every scalar of `context`, flattened to dotted keys),
// a stage bar chart (inline SVG, one group per stage that ran with one bar per engine, labelled
// with stage name and cycles), the stage table (instructions, cycles per engine, share of the
// engine's total cycles, match), the unit table (busy cycles, spans, utilisation = busy / total
// cycles per engine, match) and, for a co-simulation, the first divergence (both records with
// disassembly and the differing fields marked, the comparator's details, the last retired
// records of each engine), the final register differences and per memory space the differing
// byte count, the first difference and the differing byte ranges (bytes and units). All cycle
// figures are machine cycles. Every text taken from the data is HTML-escaped.
//
// Hooks for tools and tests: chart groups carry data-stage-bar="<stage>", their bars
// data-engine="<engine>" data-cycles="<cycles>"; table rows carry data-stage="<stage>" or
// data-unit="<unit>", their cells data-engine and data-kind (instructions, cycles, busy_cycles,
// spans); totals rows class="total".
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "moesim/cosim/cosim.hpp"
#include "moesim/isa/html_escape.hpp"
#include "moesim/isa/spec.hpp"

namespace moesim::report {

/// `text` with &, <, >, " and ' replaced by character references.
using isa::html_escape;

/// The HTML document of a co-simulation. `context` is a JSON object (e.g. the CLI's program and
/// preset description, tool, flags), or null; its scalars are listed under "Run context".
/// `machine` (may be null) evaluates the divergent instruction's effective addresses.
std::string html_report(const isa::Spec& spec, const cosim::CosimResult& r,
                        const nlohmann::json& context, const isa::MachinePreset* machine = nullptr);

/// The HTML document of a single-engine run (see the CosimResult overload).
std::string html_report(const isa::Spec& spec, const cosim::RunResult& r,
                        const nlohmann::json& context);

/// Writes html_report(spec, r, context) to `path`. Throws std::runtime_error naming the path if
/// it cannot be written.
void write_html_report(const std::filesystem::path& path, const isa::Spec& spec,
                       const cosim::CosimResult& r, const nlohmann::json& context,
                       const isa::MachinePreset* machine = nullptr);

/// Writes html_report(spec, r, context) for a single-engine run to `path` (errors as above).
void write_html_report(const std::filesystem::path& path, const isa::Spec& spec,
                       const cosim::RunResult& r, const nlohmann::json& context);

}  // namespace moesim::report
