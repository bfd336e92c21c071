// The RTL backend of one Verilated moe_top (backend.hpp): drives it and turns its trace ports
// into retire and transfer records (docs/architecture.md "RTL contract",
// isa_spec/include/moesim/isa/trace.hpp; docs/overlap.md).
// Compiled once per preset of MOESIM_RTL_PRESETS, against that preset's generated rtl_cfg.hpp,
// which names the Verilated classes and the namespace (moesim::rtl::variant_<preset>).
//
// Clocking: every cycle is evaluated with clk low first (the combinational trace ports of the
// cycle are then valid and sampled), then the rising edge commits the cycle's writes. Cycle 0 is
// the first cycle after reset. unit_busy_o is sampled in the same low phase of every cycle of an
// instruction and turned into UnitSpans that are closed at its retire. The HBM backing store lives
// here, behind the DPI-C functions moe_hbm_read / moe_hbm_write (model.cpp) that moe_hbm calls at
// its access edge.
//
// DMA queue (DMA_QUEUE > 0, docs/overlap.md): a DMA instruction retires in its issue cycle with
// no writes; its transfer gets a record of its own, opened when moe_top queues it (xfer_push_o),
// started with the engine (xfer_start_o) and returned after the edge that completes it
// (xfer_done_o), with the DMA engine's VRAM / MRAM writes and its HBM writes and bytes (the DPI-C
// accesses made while it is the transfer in progress: the engine runs one at a time). The engine's
// busy cycles are the transfer's UnitSpan. Records are returned in the order of their end cycle,
// a transfer before a retire at the same one; a retire record carries its ready cycle (the end
// of its predecessor) and the stall cycles and cause moe_top reports (stall_o, stall_cause_o).
// After a trap, or past the last instruction, the model is clocked until no transfer is
// pending (halted_o).
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "backend.hpp"
#include "moesim/isa/checkpoint.hpp"
#include "moesim/isa/geometry.hpp"
#include "moesim/isa/numerics.hpp"
#include "moesim/rtl/model.hpp"
#include "moesim/rtl/rtl_cfg.hpp"
#include "verilated.h"
#if VM_TRACE_FST
#include "verilated_fst_c.h"
#endif

namespace moesim::rtl::MOESIM_RTL_NS {
namespace {

int64_t cfg_param(const char* name) {
  for (const auto& [n, v] : cfg::kParams)
    if (std::strcmp(n, name) == 0) return v;
  throw std::logic_error(std::string("rtl_cfg.hpp has no parameter ") + name);
}

/// Raw bytes of one Verilated array entry (little-endian host; upper bits of the last word of a
/// VlWide must stay 0, which the callers keep by zero-filling first).
template <typename T>
uint8_t* entry_bytes(T& v) {
  return reinterpret_cast<uint8_t*>(&v);
}
template <std::size_t N>
uint8_t* entry_bytes(VlWide<N>& v) {
  return reinterpret_cast<uint8_t*>(v.data());
}
template <typename T>
size_t storage_bytes(const T&) {
  return sizeof(T);
}
template <std::size_t N>
size_t storage_bytes(const VlWide<N>&) {
  return N * sizeof(EData);
}

/// Entries of a Verilated unpacked array.
template <typename T, std::size_t N>
constexpr std::size_t array_depth(const VlUnpacked<T, N>&) {
  return N;
}

/// Cycles without a record after which the RTL hangs: 8 times the longest gap the contract allows
/// (the longest isa.yaml latency on `preset`, its variables at their largest, plus the largest
/// HBM jitter, once for the instruction and once per transfer it may wait for; docs/overlap.md),
/// plus 4096. A hung unit is reported in about a second of simulation, not after minutes.
uint64_t watchdog_cycles(const isa::Spec& spec, const isa::MachinePreset& preset) {
  const std::map<std::string, int64_t> largest{
      {"rows", std::max(preset.get("HBM_V_ROWS"), preset.get("HBM_M_ROWS"))},
      {"len", preset.get("MLEN")},
      {"E", preset.get("MAX_TOPK_EXPERTS")},
      {"k", preset.get("MAX_TOPK_EXPERTS")}};
  int64_t longest = 1;
  for (const isa::InstrSpec& ins : spec.instructions())
    longest = std::max(longest, spec.latency(ins, preset, largest));
  longest += preset.get("HBM_JITTER_MAX");  // a transfer's HBM jitter (isa.yaml `hbm_jitter`)
  return 8 * static_cast<uint64_t>(longest) * (1 + static_cast<uint64_t>(preset.get("DMA_QUEUE"))) +
         4096;
}

/// What differs between `preset` and the parameters this model was Verilated with (empty if
/// nothing does). Run-time parameters (machine.yaml `runtime`) are ports, not compared.
std::string differences(const isa::Spec& spec, const isa::MachinePreset& preset) {
  std::ostringstream diff;
  for (const auto& [name, value] : cfg::kParams) {
    auto it = preset.params.find(name);
    if (it == preset.params.end())
      diff << " " << name << " missing (built " << value << ");";
    else if (it->second != value)
      diff << " " << name << " = " << it->second << " (built " << value << ");";
  }
  size_t built_params = 0;
  for (const auto& [name, value] : preset.params)
    if (!spec.is_runtime_parameter(name)) ++built_params;
  if (built_params != std::size(cfg::kParams))
    diff << " parameter sets differ (" << built_params << " vs " << std::size(cfg::kParams) << ");";
  return diff.str();
}

}  // namespace

using isa::Space;

struct Impl {
  const isa::Spec& spec;
  // Machine parameters the model was Verilated with.
  uint64_t imem_words;
  /// isa::space_geometry() of every space (indexed by isa::Space) of the preset, which the
  /// constructor holds to the Verilated parameters.
  std::array<isa::SpaceGeometry, isa::kAllSpaces.size()> geo{};
  uint64_t budget = 0;      ///< instruction_budget_i of the next load() (machine.yaml `runtime`)
  uint64_t dma_queue = 0;   ///< dma_queue_i of the next load() or restore() (reset_with())
  uint32_t hbm_jitter = 0;  ///< hbm_jitter_seed_i of the next load() (reset_with())

  std::unique_ptr<VerilatedContext> ctx;
  std::unique_ptr<cfg::VTop> top;
#if VM_TRACE_FST
  std::unique_ptr<VerilatedFstC> fst;
#endif
  HbmStore hbm;
  isa::Program program;
  bool loaded = false;
  bool stopped = false;  ///< halted or trapped, the queue drained, every record returned
  bool trapped = false;
  bool queued = false;    ///< DMA_QUEUE > 0: transfers overlap later instructions
  uint8_t dma_unit = 0;   ///< index of the DMA engine in Spec::units()
  uint64_t ready = 0;     ///< ready cycle of the instruction at pc: its predecessor's end
  isa::RetireRecord cur;  ///< the instruction at pc (offered, stalled or running)
  std::deque<isa::RetireRecord> xfers;  ///< pending transfers, oldest (in progress) first
  std::deque<isa::RetireRecord> out;    ///< records completed, not yet returned
  uint64_t cycle = 0;
  uint64_t retired = 0;
  std::vector<isa::UnitSpan> instr_spans;  ///< spans of the instruction in flight
  std::vector<isa::UnitSpan> spans;        ///< spans of retired instructions, not yet taken

  isa::MachinePreset preset;  ///< the preset the model was made for (checkpoint shapes)

  uint64_t watchdog = 0;  ///< cycles without a record after which step() reports a hang

  Impl(const isa::Spec& s, const isa::MachinePreset& p) : spec(s), preset(p) {}

  cfg::VRoot& root() { return *top->rootp; }
  const cfg::VRoot& root() const { return *top->rootp; }

  /// FST time (Verilator --timescale 1ns/100ps, so units of 100 ps) of the dumps of clock():
  /// the state after the rising edge that starts cycle c at c ns, clk's fall at c + 0.5 ns, as
  /// the stage VCD (1 cycle = 1 ns). Reset before the first load is not dumped; only cycles (or
  /// retire indices) inside the window of RtlOptions are.
  void dump() {
#if VM_TRACE_FST
    if (!fst || !loaded) return;
    const uint64_t c = cycle + 1;  // clock() dumps the state of the next cycle
    const uint64_t at = window_retires ? retired : c;
    const uint64_t t = 10 * c + (top->clk_i ? 0 : 5);
    if (at < window_begin || at >= window_end || (dumped && t <= last_dump)) return;
    fst->dump(t);
    dumped = true;
    last_dump = t;
#endif
  }
  uint64_t window_begin = 0, window_end = UINT64_MAX, last_dump = 0;
  bool window_retires = false, dumped = false;
  /// Rising edge, then the low phase of the next cycle (its trace ports become valid). A failed
  /// assertion of rtl_model/sva (Verilated with --assert) has printed its "%Error: ...
  /// Assertion failed in TOP.moe_top...<Name>_A: <unit>: ..." line on stdout at that edge; it
  /// ends the run here (docs/assertions.md).
  void clock() {
    const uint32_t pc = top->issue_pc_o;  // the instruction in flight in the cycle the edge ends
    top->clk_i = 1;
    top->eval();
    ctx->timeInc(5);
    dump();
    top->clk_i = 0;
    top->eval();
    ctx->timeInc(5);
    dump();
    if (ctx->gotError()) {
      std::fflush(stdout);
      std::ostringstream e;
      e << "RTL assertion failed at the end of cycle " << cycle << " (pc " << pc
        << "): the %Error line on stdout names it (docs/assertions.md)";
      throw std::runtime_error(e.str());
    }
  }

  /// Bytes per entry of a space's byte image (its address unit).
  uint64_t unit_bytes(Space s) const { return geo[static_cast<size_t>(s)].unit_bytes; }
  uint64_t units(Space s) const { return geo[static_cast<size_t>(s)].units; }
  /// Pointer to entry `i` of an SRAM space (not HBM).
  uint8_t* entry(Space s, uint64_t i) {
    auto& r = root();
    switch (s) {
      case Space::Vram:
        return entry_bytes(r.moe_top__DOT__u_mem__DOT__vram[i]);
      case Space::Mram:
        return entry_bytes(r.moe_top__DOT__u_mem__DOT__mram[i]);
      case Space::FpSram:
        return entry_bytes(r.moe_top__DOT__u_mem__DOT__fpsram[i]);
      case Space::IntSram:
        return entry_bytes(r.moe_top__DOT__u_mem__DOT__intsram[i]);
      case Space::Hbm:
        break;
    }
    throw std::logic_error("RtlModel: HBM has no RTL array");
  }
  const uint8_t* entry(Space s, uint64_t i) const { return const_cast<Impl*>(this)->entry(s, i); }

  void zero(Space s) {
    auto& r = root();
    const size_t n = (s == Space::Vram)   ? storage_bytes(r.moe_top__DOT__u_mem__DOT__vram[0])
                     : (s == Space::Mram) ? storage_bytes(r.moe_top__DOT__u_mem__DOT__mram[0])
                                          : unit_bytes(s);
    // MRAM is built MRAM_TILES_MAX tiles deep: rows past the run's MRAM_TILES are cleared too.
    const uint64_t rows =
        (s == Space::Mram) ? array_depth(r.moe_top__DOT__u_mem__DOT__mram) : units(s);
    for (uint64_t i = 0; i < rows; ++i) std::memset(entry(s, i), 0, n);
  }

  void write_segment(Space s, const isa::MemorySegment& seg) {
    const uint64_t ub = unit_bytes(s), total = units(s) * ub;
    if (seg.base > total || seg.bytes.size() > total - seg.base) {
      std::ostringstream m;
      m << "Model::load: " << isa::space_name(s) << " segment [" << seg.base << ", "
        << seg.base + seg.bytes.size() << ") exceeds the space (" << total << " bytes)";
      throw std::invalid_argument(m.str());
    }
    if (s == Space::Hbm) {
      std::memcpy(hbm.bytes.data() + seg.base, seg.bytes.data(), seg.bytes.size());
      return;
    }
    for (size_t k = 0; k < seg.bytes.size(); ++k) {
      const uint64_t b = seg.base + k;
      entry(s, b / ub)[b % ub] = seg.bytes[k];
    }
  }

  /// Adds the current cycle to the span of every unit whose unit_busy_o bit is high: extends the
  /// unit's span if it ended at this cycle, else opens a new one.
  void sample_busy() {
    uint64_t bits = top->unit_busy_o;
    const size_t n = spec.units().size();
    if (n < 64 && (bits >> n) != 0) {
      std::ostringstream e;
      e << "RtlModel: unit_busy_o = 0x" << std::hex << bits << std::dec << " in cycle " << cycle
        << " sets a bit past the " << n << " units of isa.yaml";
      throw std::logic_error(e.str());
    }
    for (uint8_t u = 0; bits != 0; ++u, bits >>= 1) {
      if ((bits & 1) == 0 || (queued && u == dma_unit)) continue;  // a transfer's: its record
      auto open = std::find_if(instr_spans.rbegin(), instr_spans.rend(),
                               [u](const isa::UnitSpan& s) { return s.unit == u; });
      if (open != instr_spans.rend() && open->end == cycle)
        open->end = cycle + 1;
      else
        instr_spans.push_back({u, cycle, cycle + 1});
    }
  }

  /// Closes the spans of the instruction retiring now: sorted by (begin, unit), appended.
  void close_spans() {
    std::sort(instr_spans.begin(), instr_spans.end(),
              [](const isa::UnitSpan& a, const isa::UnitSpan& b) {
                return a.begin != b.begin ? a.begin < b.begin : a.unit < b.unit;
              });
    spans.insert(spans.end(), instr_spans.begin(), instr_spans.end());
    instr_spans.clear();
  }

  /// Writes observed on the trace ports in the current cycle: the core's into `r`, the DMA
  /// engine's into `dma`.
  void collect_writes(isa::RetireRecord& r, isa::RetireRecord& dma) const {
    using isa::RegFile;
    const cfg::VTop& t = *top;
    if (t.gp_we_o) r.regs.push_back({RegFile::Gp, t.gp_waddr_o, t.gp_wdata_o});
    if (t.fp_we_o) r.regs.push_back({RegFile::Fp, t.fp_waddr_o, t.fp_wdata_o});
    if (t.areg_we_o) r.regs.push_back({RegFile::Addr, t.areg_waddr_o, t.areg_wdata_o});
    if (t.ctrl_we_o) r.regs.push_back({RegFile::Ctrl, t.ctrl_sel_o, t.ctrl_wdata_o});
    auto mem = [](isa::RetireRecord& to, Space s, uint64_t a) {
      to.mems.push_back({s, a, a + 1, 0});
    };
    if (t.vram_we_o) mem(r, Space::Vram, t.vram_wrow_o);
    if (t.dma_vram_we_o) mem(dma, Space::Vram, t.dma_vram_wrow_o);
    if (t.mram_we_o) mem(dma, Space::Mram, t.mram_wrow_o);
    if (t.fpsram_we_o) mem(r, Space::FpSram, t.fpsram_waddr_o);
    if (t.intsram_we_o) mem(r, Space::IntSram, t.intsram_waddr_o);
  }

  /// Runs the current cycle (its low phase is on the ports) and its rising edge; completed
  /// records go to `out`. Returns false, without clocking, when the instruction at pc traps
  /// (its record is in `out`).
  bool cycle_once();
};

#if VM_COVERAGE
/// The coverage of this preset's models (backend.hpp CoverageSink). A model's counters live in
/// its symbol table (__Vcoverage, one per point, in the order its constructor registers them
/// with its VerilatedContext, which is the same for every model of this preset): a model adds
/// them to the totals when it is destroyed, and write() sums the totals and the live models'
/// counters into a fresh model of its own, whose context writes them with their keys.
class Coverage final : public CoverageSink {
 public:
  static Coverage& get() {
    static Coverage c;
    return c;
  }
  void attach(const cfg::VSyms* syms) {
    std::lock_guard<std::mutex> lock(mu_);
    live_.insert(syms);
    ++models_;
  }
  void detach(const cfg::VSyms* syms) {
    std::lock_guard<std::mutex> lock(mu_);
    add(totals_, *syms);
    live_.erase(syms);
  }
  uint64_t models() const override {
    std::lock_guard<std::mutex> lock(mu_);
    return models_;
  }
  void write(const std::string& path) override {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<uint64_t> sum = totals_;
    for (const cfg::VSyms* s : live_) add(sum, *s);
    VerilatedContext ctx;
    ctx.fatalOnError(false);
    auto top = std::make_unique<cfg::VTop>(&ctx, "TOP");
    auto& counters = top->rootp->vlSymsp->__Vcoverage;
    // A point's counter is 32 bits wide: a sum past that saturates (only hit or not matters).
    for (size_t i = 0; i < std::size(counters); ++i)
      counters[i] = static_cast<uint32_t>(std::min<uint64_t>(sum[i], UINT32_MAX));
    // Per instance: Verilator otherwise sums the points of one source line over the instances
    // of a module and over the iterations of a generate loop (g_occ[1..3] would be one point).
    ctx.coveragep()->forcePerInstance(true);
    const std::string tmp = path + ".tmp";
    ctx.coveragep()->write(tmp.c_str());
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
      std::remove(tmp.c_str());
      throw std::runtime_error("cannot write the RTL coverage file " + path);
    }
  }

 private:
  static constexpr size_t kPoints =
      std::extent_v<decltype(std::declval<cfg::VSyms&>().__Vcoverage)>;
  static void add(std::vector<uint64_t>& to, const cfg::VSyms& syms) {
    for (size_t i = 0; i < kPoints; ++i) to[i] += syms.__Vcoverage[i].load();
  }
  Coverage() : totals_(kPoints, 0) {}
  mutable std::mutex mu_;
  std::vector<uint64_t> totals_;
  std::set<const cfg::VSyms*> live_;
  uint64_t models_ = 0;
};
#endif

/// This Verilated model behind the engine interface (moesim/isa/engine.hpp documents the calls).
class Model final : public isa::Engine {
 public:
  Model(const isa::Spec& spec, const isa::MachinePreset& preset, const RtlOptions& opts);
  ~Model() override;
  std::string name() const override { return "rtl"; }
  void load(const isa::Program& program, const isa::MemoryImage& image) override;
  void set_instruction_budget(uint64_t budget) override;
  void set_dma_queue(uint64_t depth) override;
  void set_hbm_jitter(uint64_t seed) override;
  bool step(isa::RetireRecord& out) override;
  bool halted() const override;
  uint64_t cycles() const override;
  uint64_t retired() const override;
  uint64_t hbm_bytes_read() const override;
  uint64_t hbm_bytes_written() const override;
  isa::ArchRegs regs() const override;
  std::vector<uint8_t> read(isa::Space space, uint64_t begin, uint64_t count) const override;
  uint64_t size(isa::Space space) const override;
  std::vector<isa::UnitSpan> take_unit_spans() override;
  isa::ArchState save() const override;
  void restore(const isa::Program& program, const isa::ArchState& state) override;

 private:
  /// Checks the program, resets the RTL with no program (prog_len_i = 0 keeps the core halted),
  /// zeroes every memory and the HBM store, and writes the program into imem.
  void reset_with(const isa::Program& program);
  /// Starts the run: budget and program length on the ports, counters from `retired`, `cycle`.
  void start(const isa::Program& program, uint64_t budget, uint64_t retired, uint64_t cycle);
  std::unique_ptr<Impl> impl_;
};

Model::Model(const isa::Spec& spec, const isa::MachinePreset& preset, const RtlOptions& opts)
    : impl_(std::make_unique<Impl>(spec, preset)) {
  // The preset must have the parameters the RTL was Verilated with (run-time parameters are
  // ports, not Verilator parameters).
  const std::string diff = differences(spec, preset);
  if (!diff.empty())
    throw std::invalid_argument("RtlModel: preset '" + preset.name +
                                "' differs from the Verilated preset '" + cfg::kPreset +
                                "':" + diff);

  auto& m = *impl_;
  m.watchdog = watchdog_cycles(spec, preset);  // after the check: the formulas need a sound preset
  for (Space s : isa::kAllSpaces) m.geo[static_cast<size_t>(s)] = isa::space_geometry(s, preset);
  m.imem_words = static_cast<uint64_t>(cfg_param("IMEM_WORDS"));
  m.hbm.bytes.assign(static_cast<size_t>(preset.get("HBM_BYTES")), 0);
  m.budget = static_cast<uint64_t>(preset.get("INSTRUCTION_BUDGET"));

  m.ctx = std::make_unique<VerilatedContext>();
  // A failed assertion sets gotError instead of aborting the process: clock() throws.
  m.ctx->fatalOnError(false);
#if VM_TRACE_FST
  if (!opts.fst_path.empty()) m.ctx->traceEverOn(true);
#endif
  m.top = std::make_unique<cfg::VTop>(m.ctx.get(), "TOP");
#if VM_TRACE_FST
  if (!opts.fst_path.empty()) {
    m.fst = std::make_unique<VerilatedFstC>();
    m.top->trace(m.fst.get(), 99);
    m.fst->open(opts.fst_path.c_str());
    m.window_begin = opts.trace_begin;
    m.window_end = opts.trace_end;
    m.window_retires = opts.trace_retires;
  }
#else
  if (!opts.fst_path.empty())
    throw std::invalid_argument("RtlModel: built without FST tracing, cannot write " +
                                opts.fst_path);
#endif

  // The ROMs hold the generated correctly rounded tables (isa_spec); the design never writes
  // them.
  const uint16_t* exp_t = num::exp_bf16_table();
  const uint16_t* reci_t = num::reci_bf16_table();
  const uint16_t* sqrt_t = num::sqrt_bf16_table();
  auto& r = m.root();
  for (size_t i = 0; i < 65536; ++i) {
    r.moe_top__DOT__u_mem__DOT__u_exp_rom__DOT__mem[i] = exp_t[i];
    r.moe_top__DOT__u_mem__DOT__u_reci_rom__DOT__mem[i] = reci_t[i];
    r.moe_top__DOT__u_mem__DOT__u_sqrt_rom__DOT__mem[i] = sqrt_t[i];
  }
  m.top->prog_len_i = 0;
  m.top->instruction_budget_i = static_cast<uint32_t>(m.budget);
  // The run-time sizes (machine.yaml `runtime`; the loader held them to their ports' ranges and
  // MRAM_TILES to the parameter MRAM_TILES_MAX, the array's depth) stay fixed for the model's
  // lifetime; moe_top registers them, and the reset cycles of reset_with() load them.
  m.top->mram_tiles_i = static_cast<uint8_t>(preset.get("MRAM_TILES"));
  m.top->hbm_bytes_i = static_cast<uint64_t>(preset.get("HBM_BYTES"));
  m.dma_queue = static_cast<uint64_t>(preset.get("DMA_QUEUE"));  // reset_with() drives it
  m.top->hbm_jitter_max_i = static_cast<uint8_t>(preset.get("HBM_JITTER_MAX"));
  m.hbm_jitter = static_cast<uint32_t>(preset.get("HBM_JITTER_SEED"));  // reset_with() drives it
  m.dma_unit = static_cast<uint8_t>(isa::Unit::Dma);
  if (m.units(Space::Mram) > array_depth(m.root().moe_top__DOT__u_mem__DOT__mram))
    throw std::logic_error("RtlModel: MRAM_TILES exceeds the MRAM array built");
  m.top->clk_i = 0;
  m.top->rst_ni = 0;
  m.top->eval();
#if VM_COVERAGE
  // Last: a constructor that throws leaves no pointer to its model behind.
  Coverage::get().attach(m.top->rootp->vlSymsp);
#endif
}

void Model::set_instruction_budget(uint64_t budget) {
  impl_->budget = impl_->spec.checked_instruction_budget(budget);
}

void Model::set_dma_queue(uint64_t depth) {
  auto& m = *impl_;
  m.dma_queue = m.spec.checked_dma_queue(depth);
  m.preset.params["DMA_QUEUE"] = static_cast<int64_t>(depth);
  m.watchdog = watchdog_cycles(m.spec, m.preset);
}

void Model::set_hbm_jitter(uint64_t seed) {
  impl_->hbm_jitter = static_cast<uint32_t>(impl_->spec.checked_hbm_jitter_seed(seed));
}

Model::~Model() {
  if (!impl_ || !impl_->top) return;
  impl_->top->final();
#if VM_COVERAGE
  Coverage::get().detach(impl_->top->rootp->vlSymsp);
#endif
#if VM_TRACE_FST
  if (impl_->fst) impl_->fst->close();
#endif
}

void Model::reset_with(const isa::Program& program) {
  auto& m = *impl_;
  if (program.words.size() > m.imem_words) {
    std::ostringstream e;
    e << "Model::load: " << program.source << ": " << program.words.size()
      << " instructions exceed IMEM_WORDS = " << m.imem_words;
    throw std::invalid_argument(e.str());
  }
  if (program.stages.size() != program.words.size())
    throw std::invalid_argument("Model::load: " + program.source +
                                ": stage table and program differ in length");

  // Reset with no program (prog_len_i = 0 keeps the core halted), then load the memories. The
  // reset cycles register dma_queue_i (set_dma_queue()) and hbm_jitter_seed_i (set_hbm_jitter();
  // they also clear the transfer number).
  m.top->dma_queue_i = static_cast<uint8_t>(m.dma_queue);
  m.top->hbm_jitter_seed_i = m.hbm_jitter;
  m.queued = m.dma_queue > 0;
  m.top->prog_len_i = 0;
  m.top->rst_ni = 0;
  m.top->clk_i = 0;
  m.top->eval();
  m.clock();
  m.clock();
  m.top->rst_ni = 1;
  m.top->eval();

  for (Space s : {Space::Vram, Space::Mram, Space::FpSram, Space::IntSram}) m.zero(s);
  std::fill(m.hbm.bytes.begin(), m.hbm.bytes.end(), 0);
  m.hbm.bytes_read = m.hbm.bytes_written = 0;
  auto& imem = m.root().moe_top__DOT__u_fetch__DOT__imem;
  for (uint64_t pc = 0; pc < m.imem_words; ++pc) imem[pc] = 0;
  for (size_t pc = 0; pc < program.words.size(); ++pc)
    imem[pc] = (static_cast<uint64_t>(program.stages[pc]) << 32) | program.words[pc];
}

void Model::start(const isa::Program& program, uint64_t budget, uint64_t retired, uint64_t cycle) {
  auto& m = *impl_;
  m.program = program;
  m.top->instruction_budget_i = static_cast<uint32_t>(budget);
  m.top->prog_len_i = static_cast<uint32_t>(program.words.size());
  m.top->eval();
  // A restored run's waveform shows the global cycle: 10 time units per cycle (clock()).
  if (cycle != 0 && cycle * 10 > m.ctx->time()) m.ctx->time(cycle * 10);
  m.loaded = true;
  m.stopped = false;
  m.trapped = false;
  m.cycle = cycle;
  m.retired = retired;
  m.instr_spans.clear();
  m.spans.clear();
  m.ready = cycle;
  m.cur = {};
  m.xfers.clear();
  m.out.clear();
}

void Model::load(const isa::Program& program, const isa::MemoryImage& image) {
  auto& m = *impl_;
  reset_with(program);
  const std::pair<Space, const std::vector<isa::MemorySegment>*> segs[] = {
      {Space::Vram, &image.vram},
      {Space::Mram, &image.mram},
      {Space::FpSram, &image.fp_sram},
      {Space::IntSram, &image.int_sram},
      {Space::Hbm, &image.hbm}};
  for (const auto& [space, list] : segs)
    for (const auto& seg : *list) m.write_segment(space, seg);
  start(program, m.budget, 0, 0);
}

isa::ArchState Model::save() const {
  const auto& m = *impl_;
  if (!m.loaded) throw std::logic_error("RtlModel: save() before load()");
  if (m.trapped) throw std::logic_error("RtlModel: no checkpoint of a trapped machine");
  if (!m.xfers.empty())
    throw std::logic_error("RtlModel: no checkpoint with a transfer pending (docs/overlap.md)");
  if (m.hbm_jitter != 0)
    throw std::logic_error(
        "RtlModel: no checkpoint under HBM jitter (it would hold no transfer number)");
  const auto& r = m.root();
  isa::ArchState s;
  s.pc = r.moe_top__DOT__u_fetch__DOT__pc_q;
  s.retired = m.retired;
  s.cycle = m.cycle;
  s.instruction_budget = m.top->instruction_budget_i;
  s.regs = regs();
  for (uint32_t i = 0; i < r.moe_top__DOT__u_fetch__DOT__loop_depth_q; ++i)
    s.loops.push_back({r.moe_top__DOT__u_fetch__DOT__loop_pc_q[i],
                       r.moe_top__DOT__u_fetch__DOT__loop_brk_q[i] != 0});
  const isa::StateShape shape = isa::state_shape(m.preset);
  const size_t blen = static_cast<size_t>(cfg_param("BLEN"));
  const size_t mlen = static_cast<size_t>(cfg_param("MLEN"));
  for (size_t i = 0; i < blen; ++i)
    for (size_t j = 0; j < blen; ++j) s.acc.push_back(r.moe_top__DOT__u_matrix__DOT__acc_q[i][j]);
  for (size_t j = 0; j < shape.vacc; ++j)
    s.vacc.push_back(r.moe_top__DOT__u_matrix__DOT__vacc_q[j]);
  for (size_t i = 0; i < shape.hv; ++i) s.hv.push_back(r.moe_top__DOT__u_matrix__DOT__hv_q[i]);
  // hm is a memory with a valid bit per row of MLEN words: a row whose bit is clear holds +0.0
  // (moe_matrix_unit.sv), whatever its stale words say.
  const uint8_t* live =
      entry_bytes(const_cast<cfg::VRoot&>(r).moe_top__DOT__u_matrix__DOT__hm_live_q);
  for (size_t i = 0; i < shape.hm; ++i) {
    const size_t row = i / mlen;
    const bool valid = ((live[row / 8] >> (row % 8)) & 1) != 0;
    s.hm.push_back(valid ? r.moe_top__DOT__u_matrix__DOT__hm_q[i] : 0u);
  }
  for (Space sp : isa::kAllSpaces) s.mem[static_cast<size_t>(sp)] = read(sp, 0, m.units(sp));
  return s;
}

void Model::restore(const isa::Program& program, const isa::ArchState& state) {
  auto& m = *impl_;
  isa::check_state_shape(state, m.preset);
  const uint64_t budget = m.spec.checked_instruction_budget(state.instruction_budget);
  if (m.hbm_jitter != 0)
    throw std::invalid_argument(
        "RtlModel: no restore under HBM jitter (a checkpoint holds no transfer number)");
  if (state.retired > UINT32_MAX)
    throw std::invalid_argument("RtlModel: retire count " + std::to_string(state.retired) +
                                " does not fit retired_q (32 bits)");
  reset_with(program);
  for (Space sp : isa::kAllSpaces)
    m.write_segment(sp, isa::MemorySegment{0, state.mem[static_cast<size_t>(sp)]});
  auto& r = m.root();
  r.moe_top__DOT__u_fetch__DOT__pc_q = state.pc;
  r.moe_top__DOT__u_fetch__DOT__retired_q = static_cast<uint32_t>(state.retired);
  for (size_t i = 1; i < state.regs.gp.size(); ++i)
    r.moe_top__DOT__u_regs__DOT__gp_q[i] = state.regs.gp[i];
  for (size_t i = 1; i < state.regs.fp.size(); ++i)
    r.moe_top__DOT__u_regs__DOT__fp_q[i] = state.regs.fp[i];
  for (size_t i = 0; i < state.regs.addr.size(); ++i)
    r.moe_top__DOT__u_regs__DOT__areg_q[i] = state.regs.addr[i];
  r.moe_top__DOT__u_regs__DOT__scale_q = state.regs.scale;
  r.moe_top__DOT__u_regs__DOT__stride_q = state.regs.stride;
  r.moe_top__DOT__u_regs__DOT__vmask_q = state.regs.v_mask;
  r.moe_top__DOT__u_regs__DOT__topk_policy_q = state.regs.topk_policy;
  r.moe_top__DOT__u_regs__DOT__topk_valid_q = state.regs.topk_valid ? 1 : 0;
  // check_state_shape() has held the stack to LOOP_DEPTH, the arrays' depth.
  for (size_t i = 0;
       i < state.loops.size() && i < array_depth(r.moe_top__DOT__u_fetch__DOT__loop_brk_q); ++i) {
    r.moe_top__DOT__u_fetch__DOT__loop_pc_q[i] = state.loops[i].body;
    r.moe_top__DOT__u_fetch__DOT__loop_brk_q[i] = state.loops[i].broken ? 1 : 0;
  }
  r.moe_top__DOT__u_fetch__DOT__loop_depth_q = static_cast<uint8_t>(state.loops.size());
  const size_t blen = static_cast<size_t>(cfg_param("BLEN"));
  const size_t mlen = static_cast<size_t>(cfg_param("MLEN"));
  for (size_t i = 0; i < blen; ++i)
    for (size_t j = 0; j < blen; ++j)
      r.moe_top__DOT__u_matrix__DOT__acc_q[i][j] = state.acc[i * blen + j];
  for (size_t j = 0; j < state.vacc.size(); ++j)
    r.moe_top__DOT__u_matrix__DOT__vacc_q[j] = state.vacc[j];
  for (size_t i = 0; i < state.hv.size(); ++i) r.moe_top__DOT__u_matrix__DOT__hv_q[i] = state.hv[i];
  // Every hm row valid, holding the checkpoint's words (+0.0 where the row was clear).
  for (size_t i = 0; i < state.hm.size(); ++i) r.moe_top__DOT__u_matrix__DOT__hm_q[i] = state.hm[i];
  uint8_t* live = entry_bytes(r.moe_top__DOT__u_matrix__DOT__hm_live_q);
  for (size_t row = 0; row < state.hm.size() / mlen; ++row)
    live[row / 8] = static_cast<uint8_t>(live[row / 8] | (1u << (row % 8)));
  start(program, budget, state.retired, state.cycle);
}

namespace {

/// moesim_isa_pkg::stall_e (generated from isa.yaml `stall_causes`) as the record's cause.
isa::StallCause stall_cause(uint8_t code) {
  if (const auto c = isa::stall_cause_from_code(code); c && *c != isa::StallCause::None) return *c;
  std::ostringstream e;
  e << "RtlModel: stall_cause_o = " << static_cast<unsigned>(code) << " is no stall_e cause";
  throw std::logic_error(e.str());
}

}  // namespace

bool Impl::cycle_once() {
  const cfg::VTop& t = *top;
  if (!trapped && t.trap_valid_o) {
    cur.pc = t.trap_pc_o;
    cur.word = t.trap_word_o;
    cur.stage = t.trap_stage_o;
    cur.ready_cycle = ready;
    cur.start_cycle = cur.end_cycle = cycle;
    cur.trap = isa::Trap{static_cast<uint8_t>(t.trap_cause_o), t.trap_pc_o, t.trap_word_o};
    cur.index = retired;
    trapped = true;
    isa::normalize(cur);
    out.push_back(std::exchange(cur, {}));
    return false;
  }
  if (t.stall_o) {
    ++cur.stall_cycles;
    cur.stall_cause = stall_cause(t.stall_cause_o);
  }
  if (t.issue_valid_o) {
    cur.ready_cycle = ready;
    cur.start_cycle = cycle;
  }
  if (t.xfer_push_o) {
    // The DMA instruction issuing now retires in this cycle: its retire index is `retired`.
    isa::RetireRecord x;
    x.kind = isa::RecordKind::Transfer;
    x.index = retired;
    x.pc = t.retire_pc_o;
    x.word = t.retire_word_o;
    x.stage = t.retire_stage_o;
    xfers.push_back(std::move(x));
  }
  if (t.xfer_start_o) {
    if (xfers.empty()) throw std::logic_error("RtlModel: xfer_start_o with no transfer queued");
    // A transfer's ready cycle is its start (docs/overlap.md section 6).
    xfers.front().ready_cycle = xfers.front().start_cycle = cycle;
  }
  sample_busy();
  // The DMA engine's writes: the transfer in progress's (serial: the instruction's).
  isa::RetireRecord* dma = (queued && !xfers.empty()) ? &xfers.front() : &cur;
  collect_writes(cur, *dma);
  const bool retire = t.retire_valid_o, done = t.xfer_done_o;
  if (retire) {
    cur.pc = t.retire_pc_o;
    cur.word = t.retire_word_o;
    cur.stage = t.retire_stage_o;
    cur.end_cycle = cycle + 1;
  }
  hbm.record = dma;  // HBM accesses at this edge: the DMA engine's, of the transfer in progress
  clock();
  ++cycle;
  if (done) {
    if (xfers.empty()) throw std::logic_error("RtlModel: xfer_done_o with no transfer queued");
    isa::RetireRecord x = std::move(xfers.front());
    xfers.pop_front();
    x.end_cycle = cycle;
    spans.push_back({dma_unit, x.start_cycle, x.end_cycle});
    isa::normalize(x);
    out.push_back(std::move(x));
  }
  if (retire) {
    close_spans();
    cur.index = retired++;
    ready = cycle;
    isa::normalize(cur);
    out.push_back(std::exchange(cur, {}));
  }
  return true;
}

bool Model::step(isa::RetireRecord& out) {
  auto& m = *impl_;
  if (!m.loaded) return false;
  active_hbm() = &m.hbm;
  struct Release {
    HbmStore& h;
    ~Release() {
      h.record = nullptr;
      active_hbm() = nullptr;
    }
  } release{m.hbm};

  const uint64_t limit = m.watchdog;
  const uint64_t watchdog = m.cycle + limit;
  while (m.out.empty() && !m.stopped) {
    // Halt: past the program or trapped, and no transfer pending (after a trap the model is
    // clocked only while one is).
    if (m.trapped ? m.xfers.empty() : static_cast<bool>(m.top->halted_o)) {
      m.stopped = true;
      break;
    }
    if (!m.cycle_once()) continue;  // trapped: its record is out
    if (m.cycle >= watchdog) {
      std::ostringstream e;
      e << "Model::step: no record for " << limit << " cycles (pc " << m.top->issue_pc_o
        << ", cycle " << m.cycle << ")";
      throw std::runtime_error(e.str());
    }
  }
  if (m.out.empty()) return false;
  out = std::move(m.out.front());
  m.out.pop_front();
  return true;
}

bool Model::halted() const {
  const auto& m = *impl_;
  const bool ended = m.trapped ? m.xfers.empty() : static_cast<bool>(m.top->halted_o);
  return m.out.empty() && (m.stopped || ended);
}

uint64_t Model::cycles() const { return impl_->cycle; }

uint64_t Model::retired() const {
  // Records not yet returned do not count: a transfer ending in the cycle an instruction retires
  // is returned first, and a window that stops at retire N must not see retire N counted before
  // its record is out (the golden model publishes one record at a time).
  const auto& m = *impl_;
  uint64_t held = 0;
  for (const isa::RetireRecord& r : m.out)
    if (r.kind == isa::RecordKind::Retire && !r.trap) ++held;
  return m.retired - held;
}

uint64_t Model::hbm_bytes_read() const { return impl_->hbm.bytes_read; }

uint64_t Model::hbm_bytes_written() const { return impl_->hbm.bytes_written; }

isa::ArchRegs Model::regs() const {
  const auto& r = impl_->root();
  isa::ArchRegs a;
  for (size_t i = 0; i < a.gp.size(); ++i) a.gp[i] = r.moe_top__DOT__u_regs__DOT__gp_q[i];
  for (size_t i = 0; i < a.fp.size(); ++i) a.fp[i] = r.moe_top__DOT__u_regs__DOT__fp_q[i];
  for (size_t i = 0; i < a.addr.size(); ++i) a.addr[i] = r.moe_top__DOT__u_regs__DOT__areg_q[i];
  a.scale = r.moe_top__DOT__u_regs__DOT__scale_q;
  a.stride = r.moe_top__DOT__u_regs__DOT__stride_q;
  a.v_mask = r.moe_top__DOT__u_regs__DOT__vmask_q;
  a.topk_policy = r.moe_top__DOT__u_regs__DOT__topk_policy_q;
  a.topk_valid = r.moe_top__DOT__u_regs__DOT__topk_valid_q != 0;
  return a;
}

std::vector<uint8_t> Model::read(isa::Space space, uint64_t begin, uint64_t count) const {
  const auto& m = *impl_;
  const uint64_t n = m.units(space);
  if (begin > n || count > n - begin) {
    std::ostringstream e;
    e << "Model::read: " << isa::space_name(space) << " [" << begin << ", " << begin + count
      << ") exceeds its " << n << " units";
    throw std::out_of_range(e.str());
  }
  const uint64_t ub = m.unit_bytes(space);
  std::vector<uint8_t> out(count * ub);
  if (space == Space::Hbm) {
    std::memcpy(out.data(), m.hbm.bytes.data() + begin, count);
    return out;
  }
  for (uint64_t i = 0; i < count; ++i)
    std::memcpy(out.data() + i * ub, m.entry(space, begin + i), ub);
  return out;
}

uint64_t Model::size(isa::Space space) const { return impl_->units(space); }

std::vector<isa::UnitSpan> Model::take_unit_spans() { return std::exchange(impl_->spans, {}); }

std::unique_ptr<isa::Engine> make(const isa::Spec& spec, const isa::MachinePreset& preset,
                                  const RtlOptions& opts) {
  return std::make_unique<Model>(spec, preset, opts);
}

bool runs(const isa::Spec& spec, const isa::MachinePreset& preset) {
  return differences(spec, preset).empty();
}

CoverageSink* coverage() {
#if VM_COVERAGE
  return &Coverage::get();
#else
  return nullptr;
#endif
}

}  // namespace moesim::rtl::MOESIM_RTL_NS
