// Planted lowering bugs (program_fault.hpp): the names, and the text rewrites build_moe_layer
// applies to the program it emitted (program_fault_rewrite.hpp).
#include "moesim/workload/program_fault.hpp"

#include <algorithm>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "moesim/isa/assembler.hpp"
#include "moesim/isa/tables.hpp"
#include "moesim/workload/presets.hpp"
#include "program_fault_rewrite.hpp"

namespace moesim::workload {
namespace {

const std::vector<std::pair<std::string, ProgramFault>>& program_faults() {
  static const std::vector<std::pair<std::string, ProgramFault>> faults = {
      {"topk-shift-7", ProgramFault::topk_shift_7},
      {"no-stage-markers", ProgramFault::no_stage_markers},
      {"shared-gate-dropped", ProgramFault::shared_gate_dropped},
      {"shared-as-routed", ProgramFault::shared_as_routed},
      {"correction-bias-dropped", ProgramFault::correction_bias_dropped},
      {"group-mask-dropped", ProgramFault::group_mask_dropped},
      {"weights-from-biased-scores", ProgramFault::weights_from_biased_scores},
      {"score-scales-output", ProgramFault::score_scales_output}};
  return faults;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream ss(text);
  std::string line;
  while (std::getline(ss, line)) lines.push_back(line);
  return lines;
}

/// The builder loads the C_SET_TOPK_REG operand with `S_ADDI_INT gpR, gp0, V` on the line
/// before `C_SET_TOPK_REG gpR`; V = (E << 8) | k becomes (E << 7) | k.
size_t repack_topk(std::vector<std::string>& lines) {
  static const std::regex set_re(R"(^C_SET_TOPK_REG (gp\d+)$)");
  static const std::regex li_re(R"(^S_ADDI_INT (gp\d+), gp0, (\d+)$)");
  size_t n = 0;
  for (size_t i = 1; i < lines.size(); ++i) {
    std::smatch set, li;
    if (!std::regex_match(lines[i], set, set_re)) continue;
    if (!std::regex_match(lines[i - 1], li, li_re) || li[1] != set[1])
      throw std::logic_error("--plant-fault topk-shift-7: C_SET_TOPK_REG at line " +
                             std::to_string(i + 1) + " is not preceded by S_ADDI_INT " +
                             set[1].str() + ", gp0, (E << 8) | k");
    const auto v = static_cast<uint32_t>(std::stoull(li[2].str()));
    lines[i - 1] = "S_ADDI_INT " + li[1].str() + ", gp0, " +
                   std::to_string((isa::topk_policy_e(v) << 7) | isa::topk_policy_k(v));
    ++n;
  }
  return n;
}

/// Removes the in-place V_MUL_VV (rd = rs1) lines of the shared_expert_gate stage.
size_t drop_gate_multiply(std::vector<std::string>& lines) {
  static const std::regex mul_re(R"(^V_MUL_VV (gp\d+), (gp\d+), gp\d+, 0$)");
  std::string stage = "other";
  size_t n = 0;
  std::vector<std::string> out;
  for (const std::string& l : lines) {
    if (l.rfind("; @stage=", 0) == 0) stage = l.substr(9);
    std::smatch m;
    if (stage == "shared_expert_gate" && std::regex_match(l, m, mul_re) && m[1] == m[2]) {
      ++n;
      continue;
    }
    out.push_back(l);
  }
  lines = out;
  return n;
}

/// Renames the shared expert's stage markers to routed stages.
size_t mark_shared_as_routed(std::vector<std::string>& lines) {
  static const std::vector<std::pair<std::string, std::string>> renames = {
      {"shared_expert_projection", "expert_projection"},
      {"shared_expert_activation", "expert_activation"},
      {"shared_expert_gate", "expert_route_weight"}};
  size_t n = 0;
  for (std::string& l : lines)
    for (const auto& [from, to] : renames)
      if (l == "; @stage=" + from) {
        l = "; @stage=" + to;
        ++n;
      }
  return n;
}

/// Replaces every line equal to `from` by `to`.
size_t replace_lines(std::vector<std::string>& lines, const std::string& from,
                     const std::string& to) {
  size_t n = 0;
  for (std::string& l : lines)
    if (l == from) {
      l = to;
      ++n;
    }
  return n;
}

/// The route-weight loads of DeepSeek-V3 routing, `S_LD_FP fX, gpY, <fp_logits>` with gpY an
/// expert id (the only S_LD_FP whose offset is fp_logits), read s' at fp_biased instead.
size_t weights_from_biased(std::vector<std::string>& lines, const Layout& L) {
  const std::regex ld_re("^S_LD_FP (f\\d), (gp\\d+), " + std::to_string(L.fp_logits) + "$");
  size_t n = 0;
  for (std::string& l : lines) {
    std::smatch m;
    if (std::regex_match(l, m, ld_re) && m[2] != "gp0") {
      l = "S_LD_FP " + m[1].str() + ", " + m[2].str() + ", " + std::to_string(L.fp_biased);
      ++n;
    }
  }
  return n;
}

}  // namespace

std::vector<std::string> program_fault_names() {
  std::vector<std::string> names;
  for (const auto& [name, f] : program_faults()) names.push_back(name);
  return names;
}

ProgramFault parse_program_fault(const std::string& name) {
  std::string known;
  for (const auto& [n, f] : program_faults()) {
    if (n == name) return f;
    known += (known.empty() ? "" : ", ") + n;
  }
  throw UsageError("unknown --plant-fault '" + name + "' (known: " + known + ")");
}

void rewrite_with_fault(const isa::Spec& spec, ProgramFault fault, BuiltProgram& b) {
  std::vector<std::string> lines = lines_of(b.asm_text);
  size_t changed = 0;
  switch (fault) {
    case ProgramFault::topk_shift_7:
      changed = repack_topk(lines);
      if (changed == 0)
        throw UsageError(
            "--plant-fault topk-shift-7: the program has no C_SET_TOPK_REG (its "
            "router shape uses a hardwired V_TOPK policy)");
      break;
    case ProgramFault::no_stage_markers: {
      const auto end = std::remove_if(lines.begin(), lines.end(), [](const std::string& l) {
        return l.rfind("; @stage=", 0) == 0;
      });
      changed = static_cast<size_t>(lines.end() - end);
      lines.erase(end, lines.end());
      break;
    }
    case ProgramFault::shared_gate_dropped:
      changed = drop_gate_multiply(lines);
      if (changed == 0)
        throw UsageError(
            "--plant-fault shared-gate-dropped: the program has no gated shared "
            "expert (use --shared with a model that has a shared gate)");
      break;
    case ProgramFault::shared_as_routed:
      changed = mark_shared_as_routed(lines);
      if (changed == 0)
        throw UsageError(
            "--plant-fault shared-as-routed: the program has no shared expert (use "
            "--shared with a model that has one)");
      break;
    case ProgramFault::correction_bias_dropped:
    case ProgramFault::group_mask_dropped:
    case ProgramFault::weights_from_biased_scores:
      if (b.layout.routing != Layout::Routing::sigmoid_biased)
        throw UsageError("--plant-fault " + program_fault_names()[static_cast<size_t>(fault)] +
                         ": the program has no DeepSeek-V3 (sigmoid, noaux_tc) routing");
      if (fault == ProgramFault::correction_bias_dropped)
        changed = replace_lines(lines, "S_ADD_FP f2, f1, f2", "S_ADD_FP f2, f1, f0");
      else if (fault == ProgramFault::group_mask_dropped)
        changed = replace_lines(lines, "S_ADD_FP f1, f1, f3", "S_ADD_FP f1, f1, f0");
      else
        changed = weights_from_biased(lines, b.layout);
      if (changed == 0)
        throw UsageError("--plant-fault " + program_fault_names()[static_cast<size_t>(fault)] +
                         ": the program has no such step (group-mask-dropped needs n_group > "
                         "topk_group, weights-from-biased-scores needs a renormalised or "
                         "scaled weight)");
      break;
    case ProgramFault::score_scales_output:
      throw std::logic_error("score-scales-output is planted while lowering, not by a rewrite");
  }
  std::string text;
  for (const std::string& l : lines) text += l + '\n';
  b.asm_text = text;
  b.program = isa::assemble(spec, b.asm_text, b.name);
  b.notes.push_back("planted fault: " + std::to_string(changed) + " line(s) changed");
}

}  // namespace moesim::workload
