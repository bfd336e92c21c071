// Planted lowering bugs (program_fault.hpp): the names, and the rewrites of a built program.
#include "moesim/workload/program_fault.hpp"

#include <algorithm>
#include <optional>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "layer_builder.hpp"
#include "moesim/isa/assembler.hpp"
#include "moesim/isa/tables.hpp"
#include "moesim/workload/presets.hpp"

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

/// One `li` of the builder's Emitter at lines[i]: `S_ADDI_INT gpR, gp0, V`, or `S_LUI_INT gpR, H`
/// and an optional `S_ADDI_INT gpR, gpR, L`.
struct LoadImmediate {
  std::string reg;
  uint64_t value = 0;
  size_t lines = 0;
};

std::optional<LoadImmediate> load_immediate_at(const std::vector<std::string>& lines, size_t i) {
  static const std::regex addi_re(R"(^S_ADDI_INT (gp\d+), gp0, (\d+)$)");
  static const std::regex lui_re(R"(^S_LUI_INT (gp\d+), (\d+)$)");
  static const std::regex low_re(R"(^S_ADDI_INT (gp\d+), (gp\d+), (\d+)$)");
  std::smatch m, lo;
  if (std::regex_match(lines[i], m, addi_re)) return LoadImmediate{m[1], std::stoull(m[2]), 1};
  if (!std::regex_match(lines[i], m, lui_re)) return std::nullopt;
  LoadImmediate li{m[1], std::stoull(m[2]) << 12, 1};
  if (i + 1 < lines.size() && std::regex_match(lines[i + 1], lo, low_re) && lo[1] == m[1] &&
      lo[2] == m[1]) {
    li.value += std::stoull(lo[3]);
    li.lines = 2;
  }
  return li;
}

/// `lines` with every li of `reg` whose value lies in [from, from + size) loading
/// to + (value - from) instead; adds the number replaced to `n`.
std::vector<std::string> relocated(const std::vector<std::string>& lines, const std::string& reg,
                                   uint64_t from, uint64_t size, uint64_t to, size_t& n) {
  std::vector<std::string> out;
  for (size_t i = 0; i < lines.size();) {
    const std::optional<LoadImmediate> li = load_immediate_at(lines, i);
    if (!li || li->reg != reg || li->value < from || li->value - from >= size) {
      out.push_back(lines[i++]);
      continue;
    }
    detail::Emitter em;
    em.li(static_cast<unsigned>(std::stoul(reg.substr(2))), to + (li->value - from));
    for (const std::string& l : lines_of(em.text())) out.push_back(l);
    i += li->lines;
    ++n;
  }
  return out;
}

/// Llama-4 routing scaled on the wrong side: the input-scaling block of each pair or expert
/// (`; @stage=expert_route_weight`, its comment and its instructions, before the gate/up
/// projection) moves to just before the pair's or expert's `; @stage=scatter_combine`, where it
/// scales the output rows instead. Pair-major: the same block on the output slot (v_out for
/// v_in). Expert-major: the gate/up projection reads X (v_x for v_ein) and the route rows scale
/// the expert output in place. Returns the number of blocks moved.
size_t scale_output(std::vector<std::string>& lines, const Layout& L, uint64_t vlen) {
  const std::string marker = "; @stage=expert_route_weight";
  std::vector<std::string> out;
  size_t n = 0;
  for (size_t i = 0; i < lines.size();) {
    if (lines[i] != marker) {
      out.push_back(lines[i++]);
      continue;
    }
    size_t j = i + 1;
    if (j < lines.size() && lines[j].rfind("; ", 0) == 0) ++j;  // the block's comment
    std::vector<std::string> block;
    for (; j < lines.size() && !lines[j].empty() && lines[j][0] != ';'; ++j)
      block.push_back(lines[j]);
    size_t k = j;
    while (k < lines.size() && lines[k] != "; @stage=scatter_combine") ++k;
    if (block.empty() || k == lines.size())
      throw std::logic_error("--plant-fault score-scales-output: the route-weight block at line " +
                             std::to_string(i + 1) + " is not followed by a scatter_combine");
    std::vector<std::string> rest(lines.begin() + static_cast<std::ptrdiff_t>(j),
                                  lines.begin() + static_cast<std::ptrdiff_t>(k));
    size_t moved = 0;
    std::vector<std::string> scale;
    if (L.lowering == Lowering::pair) {
      scale = relocated(block, "gp4", L.v_in, 1, L.v_out, moved);
      scale.insert(scale.begin(), marker);
    } else {
      rest = relocated(rest, "gp14", L.v_ein, uint64_t{L.tokens_padded} * L.hidden, L.v_x, moved);
      const std::optional<LoadImmediate> li = load_immediate_at(block, 0);  // gp4 = fp_dense + e
      if (!li || li->reg != "gp4" || li->value < L.fp_dense || li->value - L.fp_dense >= L.experts)
        throw std::logic_error("--plant-fault score-scales-output: line " + std::to_string(i + 3) +
                               " does not load R[t][e]'s address");
      const auto e = static_cast<unsigned>(li->value - L.fp_dense);
      detail::Emitter em;
      em.stage("expert_route_weight");
      em.comment("row t *= R[t][" + std::to_string(e) + "] (+0 unless t routed to it)");
      detail::emit_route_rows(em, L, vlen, e, L.v_eout, L.v_eout);
      scale = lines_of(em.text());
    }
    if (moved == 0)
      throw std::logic_error("--plant-fault score-scales-output: the pair or expert at line " +
                             std::to_string(i + 1) + " does not address the scaled input");
    out.insert(out.end(), rest.begin(), rest.end());
    out.insert(out.end(), scale.begin(), scale.end());
    i = k;
    ++n;
  }
  lines = out;
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

void plant_program_fault(const isa::Spec& spec, const isa::MachinePreset& preset,
                         ProgramFault fault, BuiltProgram& b) {
  std::vector<std::string> lines = lines_of(b.asm_text);
  size_t changed = 0;
  std::string note;
  // Throws the usage error of a program that has nothing the fault applies to.
  const auto require = [&](bool applies, const std::string& missing) {
    if (!applies)
      throw UsageError("--plant-fault " + program_fault_names()[static_cast<size_t>(fault)] +
                       ": the program has " + missing);
  };
  const Layout::Routing routing = b.layout.routing;
  switch (fault) {
    case ProgramFault::topk_shift_7:
      changed = repack_topk(lines);
      require(changed != 0, "no C_SET_TOPK_REG (its router shape uses a hardwired V_TOPK policy)");
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
      require(changed != 0,
              "no gated shared expert (use --shared with a model that has a shared gate)");
      break;
    case ProgramFault::shared_as_routed:
      changed = mark_shared_as_routed(lines);
      require(changed != 0, "no shared expert (use --shared with a model that has one)");
      break;
    case ProgramFault::correction_bias_dropped:
    case ProgramFault::group_mask_dropped:
    case ProgramFault::weights_from_biased_scores:
      require(routing == Layout::Routing::sigmoid_biased,
              "no DeepSeek-V3 (sigmoid, noaux_tc) routing");
      if (fault == ProgramFault::correction_bias_dropped)
        changed = replace_lines(lines, "S_ADD_FP f2, f1, f2", "S_ADD_FP f2, f1, f0");
      else if (fault == ProgramFault::group_mask_dropped)
        changed = replace_lines(lines, "S_ADD_FP f1, f1, f3", "S_ADD_FP f1, f1, f0");
      else
        changed = weights_from_biased(lines, b.layout);
      require(changed != 0,
              "no such step (group-mask-dropped needs n_group > topk_group, "
              "weights-from-biased-scores needs a renormalised or scaled weight)");
      break;
    case ProgramFault::score_scales_output:
      require(routing == Layout::Routing::input_scaled,
              "no route weight that scales the expert input (Llama-4's does)");
      scale_output(lines, b.layout, static_cast<uint64_t>(preset.vlen()));
      note = "the score scales the expert output (bf16(score * e)) instead of its input";
      break;
  }
  std::string text;
  for (const std::string& l : lines) text += l + '\n';
  b.asm_text = text;
  b.program = isa::assemble(spec, b.asm_text, b.name);
  b.notes.push_back("planted fault: " +
                    (note.empty() ? std::to_string(changed) + " line(s) changed" : note));
}

}  // namespace moesim::workload
