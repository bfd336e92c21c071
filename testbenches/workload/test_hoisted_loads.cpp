// The residual_setup loads a DMA queue lets the builder hoist under the router (docs/workloads.md,
// Programs that use the queue): checked on the generated program, without a simulator. A small
// walker runs the assembly text's control flow (C_LOOP counts are immediates) and the integer
// register arithmetic the builder uses for addresses (S_ADDI_INT, S_LUI_INT, S_ADD_INT; anything
// else that writes a gp register makes it unknown), giving the dynamic instruction sequence with
// the VRAM rows each DMA and vector instruction touches (docs/overlap.md section 3, the footprint
// table).
#include <boost/test/unit_test.hpp>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "moesim/isa/spec.hpp"
#include "moesim/workload/builder.hpp"
#include "moesim/workload/presets.hpp"

using namespace moesim;

namespace {

struct Line {
  std::string mnemonic;
  std::vector<std::string> ops;
  std::string stage;
};

/// One dynamic instruction: its static line, the VRAM rows it reads or writes (every gp operand
/// of a V_* or S_MAP_V_FP instruction names a row, V_TOPK's source its logit rows; a DMA
/// instruction its HBM_V_ROWS rows), whether an operand register was unknown, and for a DMA
/// instruction the HBM address a[an] + gp[rs1] with the SCALE and STRIDE of its issue.
struct Dyn {
  const Line* line;
  std::vector<std::pair<uint64_t, uint64_t>> rows;  // [first, last]
  bool unknown = false;
  uint64_t hbm = 0, scale = 0, stride = 0;
};

std::vector<Line> parse(const std::string& text) {
  std::vector<Line> out;
  std::istringstream in(text);
  std::string s, stage = "other";
  while (std::getline(in, s)) {
    if (s.rfind("; @stage=", 0) == 0) stage = s.substr(9);
    const auto semi = s.find(';');
    if (semi != std::string::npos) s = s.substr(0, semi);
    std::istringstream words(s);
    Line l;
    if (!(words >> l.mnemonic)) continue;
    std::string rest, op;
    std::getline(words, rest);
    std::istringstream ops(rest);
    while (std::getline(ops, op, ',')) {
      op.erase(0, op.find_first_not_of(' '));
      op.erase(op.find_last_not_of(' ') + 1);
      l.ops.push_back(op);
    }
    l.stage = stage;
    out.push_back(l);
  }
  return out;
}

std::vector<Dyn> walk(const std::vector<Line>& prog, uint64_t vlen, uint64_t vrows,
                      uint64_t logit_rows) {
  std::optional<uint64_t> g[16];
  g[0] = 0;
  uint64_t a[8] = {}, scale = 0, stride = 0;
  auto reg = [](const std::string& r) { return static_cast<unsigned>(std::stoul(r.substr(2))); };
  struct Loop {
    size_t body;
    uint64_t left;
  };
  std::vector<Loop> loops;
  std::vector<Dyn> out;
  for (size_t pc = 0; pc < prog.size();) {
    const Line& l = prog[pc];
    const std::string& m = l.mnemonic;
    Dyn d{&l, {}, false, 0, 0, 0};
    auto row = [&](const std::string& r, uint64_t n) {
      const auto v = g[reg(r)];
      if (!v)
        d.unknown = true;
      else
        d.rows.push_back({*v / vlen, *v / vlen + n - 1});
    };
    size_t next = pc + 1;
    if (m == "S_ADDI_INT") {
      const auto s = g[reg(l.ops[1])];
      g[reg(l.ops[0])] = s ? std::optional<uint64_t>(*s + std::stoull(l.ops[2])) : std::nullopt;
    } else if (m == "S_LUI_INT") {
      g[reg(l.ops[0])] = std::stoull(l.ops[1]) << 12;
    } else if (m == "S_ADD_INT") {
      const auto x = g[reg(l.ops[1])], y = g[reg(l.ops[2])];
      g[reg(l.ops[0])] = x && y ? std::optional<uint64_t>(*x + *y) : std::nullopt;
    } else if (m.rfind("S_", 0) == 0 && m.size() > 4 && m.substr(m.size() - 4) == "_INT" &&
               m != "S_ST_INT") {
      g[reg(l.ops[0])] = std::nullopt;
    } else if (m == "C_SET_ADDR_REG") {
      a[std::stoul(l.ops[0].substr(1))] = g[reg(l.ops[2])].value_or(~uint64_t{0});
    } else if (m == "C_SET_SCALE_REG") {
      scale = g[reg(l.ops[0])].value_or(~uint64_t{0});
    } else if (m == "C_SET_STRIDE_REG") {
      stride = g[reg(l.ops[0])].value_or(~uint64_t{0});
    } else if (m == "C_LOOP_START") {
      loops.push_back({pc + 1, std::stoull(l.ops[1])});
      g[reg(l.ops[0])] = std::nullopt;
    } else if (m == "C_LOOP_END") {
      if (--loops.back().left > 0)
        next = loops.back().body;
      else
        loops.pop_back();
    } else if (m == "H_PREFETCH_V" || m == "H_STORE_V") {
      row(l.ops[0], vrows);
      const auto off = g[reg(l.ops[1])];
      if (!off) d.unknown = true;
      d.hbm = a[std::stoul(l.ops[2].substr(1))] + off.value_or(0);
      d.scale = scale;
      d.stride = stride;
    } else if (m == "V_TOPK") {
      row(l.ops[1], logit_rows);
    } else if (m.rfind("V_", 0) == 0 || m == "S_MAP_V_FP") {
      for (const std::string& op : l.ops)
        if (op.rfind("gp", 0) == 0 && op != "gp0") row(op, 1);
    }
    out.push_back(d);
    pc = next;
  }
  return out;
}

bool meets(const Dyn& d, uint64_t first, uint64_t last) {
  for (const auto& [f, l] : d.rows)
    if (f <= last && first <= l) return true;
  return false;
}

workload::BuiltProgram build(const std::string& model, bool shared, workload::Lowering lowering,
                             int64_t dma_queue) {
  const auto& spec = isa::Spec::builtin();
  isa::MachinePreset preset = spec.preset("default");
  preset.params["DMA_QUEUE"] = dma_queue;
  workload::BuildOptions o;
  o.model = &workload::find_model(model);
  o.tokens = 4;
  o.hidden = 128;
  o.intermediate = 128;
  o.shared = shared;
  o.lowering = lowering;
  o.seed = 1;
  return workload::build_moe_layer(spec, preset, o);
}

}  // namespace

// With DMA_QUEUE 2 the router issues two kinds of loads under its compute: W_r's row groups
// after the first (each H/VLEN loads, issued under the previous row group's experts of token 0)
// and the loads of the expert biases b1, b2 and the shared gate weight w_g (deferred: nothing
// reads them before the experts). Each such load is issued after the router has started and
// before it ends; after every instruction it depends on (the a0 / SCALE / STRIDE of its matrix,
// and no earlier instruction touches its rows: no WAR or WAW, and no read before the load); with
// router compute (a V_MUL_VV) between it and the first instruction that touches its rows (for the
// deferred ones none in the router: no stall there) and between it and the next such load (one
// at a time, so the queue of 2 does not fill). Each VRAM row group is loaded once, from the same
// HBM address, SCALE and STRIDE as in the serial program (DMA_QUEUE 0), where every load precedes
// the router. The first gate/up projection's first weight tiles are prefetched under the router
// too.
BOOST_AUTO_TEST_CASE(builder_hoists_the_input_loads_under_the_router) {
  const auto& spec = isa::Spec::builtin();
  const isa::MachinePreset& preset = spec.preset("default");
  const uint64_t vlen = static_cast<uint64_t>(preset.vlen());
  const uint64_t vrows = static_cast<uint64_t>(preset.get("HBM_V_ROWS"));
  struct Case {
    const char* model;
    bool shared;
    workload::Lowering lowering;
  };
  for (const Case& c : {Case{"gpt-oss-20b", false, workload::Lowering::pair},
                        Case{"gpt-oss-20b", false, workload::Lowering::expert},
                        Case{"qwen1.5-moe-a2.7b", true, workload::Lowering::pair}}) {
    BOOST_TEST_CONTEXT(c.model << (c.shared ? " --shared" : "")
                               << (c.lowering == workload::Lowering::expert ? " expert" : "")) {
      std::map<uint64_t, std::vector<uint64_t>> serial_loads;  // first row -> hbm, scale, stride
      for (int64_t q : {0, 2}) {
        const auto b = build(c.model, c.shared, c.lowering, q);
        const workload::Layout& L = b.layout;
        const uint64_t hb = L.hidden / vlen;
        const auto prog = parse(b.asm_text);
        const auto dyn = walk(prog, vlen, vrows, L.logit_rows);
        // The rows of the deferred tensors: [v, v + rows) of b1, b2 and w_g (the ones present).
        std::vector<std::pair<uint64_t, uint64_t>> deferred;
        for (auto [v, rows] : {std::pair{L.v_b1, L.b1.rows}, std::pair{L.v_b2, L.b2.rows},
                               std::pair{L.v_wg, L.wg.rows * hb}})
          if (rows != 0) deferred.push_back({v / vlen, v / vlen + rows - 1});
        BOOST_REQUIRE(!deferred.empty());
        // W_r: block b's rows [v_wr/VLEN + b*rows, + rows); row group 0 is each block's first.
        const uint64_t wr0 = L.v_wr / vlen;
        auto later_wr_group = [&](uint64_t row) {
          return row >= wr0 && row < wr0 + L.wr.rows * hb && (row - wr0) % L.wr.rows >= vrows;
        };
        size_t router_first = dyn.size(), router_last = 0;
        for (size_t i = 0; i < dyn.size(); ++i)
          if (dyn[i].line->stage == "router_topk") {
            router_first = std::min(router_first, i);
            router_last = i;
          }
        BOOST_REQUIRE(router_first < router_last);
        auto router_mul = [&](size_t from, size_t to) {
          for (size_t j = from; j < to; ++j)
            if (dyn[j].line->mnemonic == "V_MUL_VV" && dyn[j].line->stage == "router_topk")
              return true;
          return false;
        };
        std::map<uint64_t, std::vector<uint64_t>> loads;
        std::vector<size_t> hoisted;
        size_t n_deferred = 0, n_wr = 0;
        for (size_t i = 0; i < dyn.size(); ++i) {
          const Dyn& d = dyn[i];
          if (d.line->mnemonic != "H_PREFETCH_V") continue;
          BOOST_REQUIRE(!d.unknown);
          BOOST_REQUIRE(d.rows.size() == 1u);
          const uint64_t first = d.rows[0].first, last = first + vrows - 1;
          BOOST_TEST(loads.count(first) == 0u, "row " << first << " loaded twice");
          loads[first] = {d.hbm, d.scale, d.stride};
          bool is_deferred = false;
          for (const auto& [f, l] : deferred)
            is_deferred = is_deferred || (f <= first && first <= l);
          if (q == 0 || (!is_deferred && !later_wr_group(first))) {
            BOOST_TEST(i < router_first, "load of row " << first << " not before the router");
            continue;
          }
          hoisted.push_back(i);
          (is_deferred ? n_deferred : n_wr) += 1;
          BOOST_TEST(router_first < i, "row " << first << " not under the router");
          BOOST_TEST(i < router_last, "row " << first << " not under the router");
          size_t reader = dyn.size();
          for (size_t j = 0; j < dyn.size(); ++j) {
            if (j == i || !meets(dyn[j], first, last)) continue;
            BOOST_TEST(j > i, "instruction " << j << " (" << dyn[j].line->mnemonic
                                             << ") meets rows " << first << ".. before the load");
            if (j > i) {
              reader = j;
              break;
            }
          }
          for (size_t j = 0; j < reader && j <= router_last; ++j)
            BOOST_TEST(!dyn[j].unknown, "instruction " << j << " has an unknown address");
          if (is_deferred)
            BOOST_TEST(reader > router_last, "the router touches rows " << first << "..");
          else
            BOOST_TEST(reader <= router_last, "the router never reads W_r rows " << first << "..");
          BOOST_TEST(router_mul(i, reader),
                     "no router compute between the load of rows " << first << ".. and its reader");
        }
        for (size_t n = 1; n < hoisted.size(); ++n)
          BOOST_TEST(router_mul(hoisted[n - 1], hoisted[n]),
                     "hoisted loads " << n - 1 << " and " << n << " back to back");
        // The first gate/up projection's first tiles: with the queue issued under the router,
        // after the first V_TOPK (pair 0's expert id) and a C_SET_ADDR_REG a1 after it (the
        // address made from that id); serially after the router.
        size_t topk = dyn.size(), addr = dyn.size(), tiles = dyn.size();
        for (size_t i = 0; i < dyn.size() && tiles == dyn.size(); ++i) {
          const std::string& m = dyn[i].line->mnemonic;
          if (m == "V_TOPK" && topk == dyn.size()) topk = i;
          if (m == "C_SET_ADDR_REG" && dyn[i].line->ops[0] == "a1") addr = i;
          if (m == "H_PREFETCH_M") tiles = i;
        }
        BOOST_REQUIRE(tiles < dyn.size());
        if (q == 0) {
          BOOST_TEST(router_last < tiles);
        } else {
          BOOST_TEST(topk < addr);
          BOOST_TEST(addr < tiles);
          BOOST_TEST(tiles < router_last, "first weight tiles not under the router");
        }
        if (q == 0) {
          serial_loads = loads;
          BOOST_TEST(hoisted.empty());
        } else {
          uint64_t rows = 0;
          for (const auto& [f, l] : deferred) rows += l - f + 1;
          BOOST_TEST(n_deferred == rows / vrows);
          BOOST_TEST(n_wr == (L.wr.rows / vrows - 1) * hb);
          BOOST_TEST((loads == serial_loads));
        }
      }
    }
  }
}
