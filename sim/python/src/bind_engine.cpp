// Bindings of the engines (docs/python.md, Engines): moesim.Golden and moesim.Rtl over the
// isa::Engine the cosim factories make, their retire records, registers and checkpoints.
#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "cli_output.hpp"
#include "common.hpp"
#include "engine_handle.hpp"
#include "moesim/cosim/cosim.hpp"
#include "moesim/isa/assembler.hpp"
#include "moesim/isa/checkpoint.hpp"
#include "moesim/isa/geometry.hpp"
#include "moesim/report/report.hpp"

namespace moesim::py {

namespace {

/// The golden model of the process (GoldenLease): made once, never destroyed.
struct GoldenSlot {
  std::unique_ptr<isa::Engine> engine;
  SpecPtr spec;               ///< the spec it was elaborated with (it keeps a reference)
  isa::MachinePreset preset;  ///< the preset it was elaborated for
  std::string user;           ///< who holds it now; empty: free
};

GoldenSlot& golden_slot() {
  static GoldenSlot* slot = new GoldenSlot;
  return *slot;
}

/// The parameters that are fixed when the golden model is elaborated: all but the ones an engine
/// sets per run (isa::Engine::set_instruction_budget, set_dma_queue).
std::map<std::string, int64_t> elaborated_params(const isa::MachinePreset& p) {
  std::map<std::string, int64_t> out = p.params;
  out.erase("INSTRUCTION_BUDGET");
  out.erase("DMA_QUEUE");
  return out;
}

[[noreturn]] void golden_error(const std::string& message) { throw GoldenUnavailable(message); }

}  // namespace

GoldenLease::GoldenLease(const SpecPtr& spec, const Machine& machine, const std::string& user) {
  GoldenSlot& s = golden_slot();
  const isa::MachinePreset& p = machine.get();
  if (!s.user.empty())
    golden_error("the golden model of this process is in use by " + s.user +
                 "; close() that first (a `with` block closes it at its end). SystemC "
                 "elaborates one design per process, so a process has one golden engine");
  if (!s.engine) {
    // Refuses a preset the golden model cannot implement before it claims the process.
    s.engine = cosim::make_golden_engine(*spec, p);
    s.spec = spec;
    s.preset = p;
  } else {
    if (spec.get() != s.spec.get() && spec->dir != s.spec->dir)
      golden_error("the golden model of this process was elaborated with the spec of " +
                   s.spec->dir.string() + "; one with " + spec->dir.string() +
                   " needs another process (SystemC elaborates one design per process)");
    if (elaborated_params(p) != elaborated_params(s.preset))
      golden_error("the golden model of this process was elaborated for machine '" + s.preset.name +
                   "'; one for machine '" + p.name +
                   "' needs another process (SystemC elaborates one design per process; run "
                   "it in a subprocess, e.g. multiprocessing with the 'spawn' start method)");
  }
  s.engine->set_instruction_budget(static_cast<uint64_t>(p.get("INSTRUCTION_BUDGET")));
  s.engine->set_dma_queue(static_cast<uint64_t>(p.get("DMA_QUEUE")));
  // A fresh machine, as a new engine would be: memories zero, registers at reset.
  s.engine->load(isa::Program{}, isa::MemoryImage{});
  s.engine->take_unit_spans();
  s.user = user;
  engine_ = s.engine.get();
}

GoldenLease::~GoldenLease() { golden_slot().user.clear(); }

isa::Engine& EngineHandle::get() const {
  if (engine_ == nullptr) throw Closed("moesim." + kind + ": the engine is closed");
  return *engine_;
}

void EngineHandle::require_loaded(const char* what) const {
  get();
  if (!program)
    throw std::logic_error("moesim." + kind + "." + what + "(): load() a program first");
}

void EngineHandle::close() {
  if (engine_ == nullptr) return;
  if (users > 0)
    throw std::logic_error("moesim." + kind +
                           ".close(): a lockstep run uses the engine; close() the run first");
  engine_ = nullptr;
  rtl_.reset();
  golden_.reset();
  program.reset();
  image.reset();
}

GoldenHandle::GoldenHandle(const SpecPtr& spec, const Machine& machine)
    : EngineHandle(spec, machine) {
  kind = "Golden";
  golden_ = std::make_unique<GoldenLease>(spec, machine, "an open moesim.Golden");
  engine_ = &golden_->engine();
}

RtlHandle::RtlHandle(const SpecPtr& spec, const Machine& machine, const std::string& fst_path,
                     const cosim::TraceWindow& window)
    : EngineHandle(spec, machine) {
  kind = "Rtl";
  cli::check_rtl_preset(*spec, machine.get().name);  // the CLI's refusal, with its text
  rtl_ = cosim::make_rtl_engine(*spec, machine.get(), fst_path, window);
  engine_ = rtl_.get();
}

namespace {

/// moesim.Regs: the architectural registers (isa::ArchRegs).
struct RegsObj {
  isa::ArchRegs regs;
};

/// moesim.Checkpoint: an engine's architectural state with what it was made from.
struct CheckpointObj {
  isa::ArchState state;
  SpecPtr spec;
  Machine machine;
  ProgramPtr program;
  ImagePtr image;
};

pyb::list reg_writes(const isa::RetireRecord& r) {
  pyb::list l;
  for (const isa::RegWrite& w : r.regs)
    l.append(pyb::make_tuple(cosim::reg_name(w.file, w.index), w.value));
  return l;
}

pyb::list mem_writes(const isa::RetireRecord& r) {
  pyb::list l;
  for (const isa::MemWrite& w : r.mems)
    l.append(pyb::make_tuple(isa::space_name(w.space), w.begin, w.end, w.digest));
  return l;
}

pyb::object trap_of(const isa::Spec& spec, const std::optional<isa::Trap>& t) {
  if (!t) return pyb::none();
  const isa::TrapSpec* ts = spec.trap_by_code(t->cause);
  return pyb::dict(pyb::arg("cause") = t->cause,
                   pyb::arg("name") = ts ? ts->name : "trap" + std::to_string(t->cause),
                   pyb::arg("pc") = t->pc, pyb::arg("word") = t->word);
}

template <class T, size_t N>
pyb::array_t<T> array_copy(const std::array<T, N>& a) {
  return pyb::array_t<T>(static_cast<pyb::ssize_t>(N), a.data());
}

uint64_t default_count(const isa::Engine& e, isa::Space s, uint64_t begin,
                       const std::optional<uint64_t>& count) {
  if (count) return *count;
  const uint64_t size = e.size(s);
  return begin < size ? size - begin : 0;
}

}  // namespace

void bind_engine(pyb::module_& m) {
  pyb::class_<RecordObj>(m, "Record",
                         "one retire record (isa::RetireRecord): a retired or trapping "
                         "instruction, or with a DMA queue a completed transfer")
      .def_property_readonly(
          "kind", [](const RecordObj& r) { return isa::record_kind_name(r.record.kind); },
          "'retire' or 'transfer'")
      .def_property_readonly("index", [](const RecordObj& r) { return r.record.index; })
      .def_property_readonly("pc", [](const RecordObj& r) { return r.record.pc; })
      .def_property_readonly("word", [](const RecordObj& r) { return r.record.word; })
      .def_property_readonly(
          "disassembly",
          [](const RecordObj& r) { return isa::disassemble(*r.spec, r.record.word); })
      .def_property_readonly("stage", [](const RecordObj& r) { return r.record.stage; })
      .def_property_readonly("stage_name",
                             [](const RecordObj& r) { return r.spec->stage_name(r.record.stage); })
      .def_property_readonly("ready_cycle", [](const RecordObj& r) { return r.record.ready_cycle; })
      .def_property_readonly("stall_cycles",
                             [](const RecordObj& r) { return r.record.stall_cycles; })
      .def_property_readonly(
          "stall_cause",
          [](const RecordObj& r) { return isa::stall_cause_name(r.record.stall_cause); })
      .def_property_readonly("start_cycle", [](const RecordObj& r) { return r.record.start_cycle; })
      .def_property_readonly("end_cycle", [](const RecordObj& r) { return r.record.end_cycle; })
      .def_property_readonly(
          "regs", [](const RecordObj& r) { return reg_writes(r.record); },
          "register writes: [(name, value)], sorted, last value per register")
      .def_property_readonly(
          "mems", [](const RecordObj& r) { return mem_writes(r.record); },
          "memory written: [(space, begin, end, digest)] in the space's unit; "
          "digest: FNV-1a 64 of the range after the record, as the "
          "comparator computes it")
      .def_property_readonly("hbm_read", [](const RecordObj& r) { return r.record.hbm_read; })
      .def_property_readonly("hbm_written", [](const RecordObj& r) { return r.record.hbm_written; })
      .def_property_readonly(
          "trap", [](const RecordObj& r) { return trap_of(*r.spec, r.record.trap); },
          "None, or {cause, name, pc, word}")
      .def(
          "to_dict",
          [](const RecordObj& r) {
            return json_to_python(report::record_json(*r.spec, r.record).dump());
          },
          "the record as the JSON report writes it (report::record_json)")
      .def("__eq__",
           [](const RecordObj& a, const RecordObj& b) {
             return cosim::differing_fields(a.record, b.record).empty() &&
                    a.record.hbm_read == b.record.hbm_read &&
                    a.record.hbm_written == b.record.hbm_written;
           })
      .def("__repr__", [](const RecordObj& r) {
        return "<moesim.Record " + report::record_line(*r.spec, r.record) + ">";
      });
  m.def(
      "differing_fields",
      [](const RecordObj& a, const RecordObj& b) {
        return cosim::differing_fields(a.record, b.record);
      },
      pyb::arg("a"), pyb::arg("b"),
      "the fields in which two records differ, as the co-simulation compares them");

  pyb::class_<RegsObj>(m, "Regs", "architectural registers (isa::ArchRegs)")
      .def_property_readonly("gp", [](const RegsObj& r) { return array_copy(r.regs.gp); })
      .def_property_readonly(
          "fp", [](const RegsObj& r) { return array_copy(r.regs.fp); }, "BF16 bits (uint16)")
      .def_property_readonly("addr", [](const RegsObj& r) { return array_copy(r.regs.addr); })
      .def_property_readonly("scale", [](const RegsObj& r) { return r.regs.scale; })
      .def_property_readonly("stride", [](const RegsObj& r) { return r.regs.stride; })
      .def_property_readonly("v_mask", [](const RegsObj& r) { return r.regs.v_mask; })
      .def_property_readonly("topk_policy", [](const RegsObj& r) { return r.regs.topk_policy; })
      .def_property_readonly("topk_valid", [](const RegsObj& r) { return r.regs.topk_valid; })
      .def(
          "as_dict",
          [](const RegsObj& r) {
            pyb::dict d;
            for (const auto& [name, v] : cosim::named_registers(r.regs)) d[name.c_str()] = v;
            return d;
          },
          "{gp0.., f0.., a0.., SCALE, STRIDE, V_MASK, TOPK_POLICY, TOPK_VALID: value}")
      .def("__getitem__",
           [](const RegsObj& r, const std::string& name) {
             for (const auto& [n, v] : cosim::named_registers(r.regs))
               if (n == name) return v;
             throw pyb::key_error("no register " + name);
           })
      .def("__eq__",
           [](const RegsObj& a, const RegsObj& b) {
             return cosim::named_registers(a.regs) == cosim::named_registers(b.regs);
           })
      .def("__repr__", [](const RegsObj& r) {
        std::string s = "<moesim.Regs";
        for (const auto& [n, v] : cosim::named_registers(r.regs))
          if (v != 0) s += " " + n + "=" + std::to_string(v);
        return s + ">";
      });

  pyb::class_<CheckpointObj>(m, "Checkpoint",
                             "an engine's architectural state at an instruction boundary "
                             "(isa::ArchState, docs/checkpoints.md); Engine.save() makes one")
      .def_property_readonly("pc", [](const CheckpointObj& c) { return c.state.pc; })
      .def_property_readonly("retired", [](const CheckpointObj& c) { return c.state.retired; })
      .def_property_readonly("cycle", [](const CheckpointObj& c) { return c.state.cycle; })
      .def_property_readonly("instruction_budget",
                             [](const CheckpointObj& c) { return c.state.instruction_budget; })
      .def_property_readonly("regs", [](const CheckpointObj& c) { return RegsObj{c.state.regs}; })
      .def_property_readonly(
          "loops",
          [](const CheckpointObj& c) {
            pyb::list l;
            for (const isa::LoopEntry& e : c.state.loops)
              l.append(pyb::make_tuple(e.body, e.broken));
            return l;
          },
          "active loops, outermost first: [(body pc, broken)]")
      .def_property_readonly(
          "accumulators",
          [](const CheckpointObj& c) {
            auto arr = [](const std::vector<uint32_t>& v) {
              return pyb::array_t<uint32_t>(static_cast<pyb::ssize_t>(v.size()), v.data());
            };
            return pyb::dict(pyb::arg("acc") = arr(c.state.acc),
                             pyb::arg("vacc") = arr(c.state.vacc), pyb::arg("hv") = arr(c.state.hv),
                             pyb::arg("hm") = arr(c.state.hm));
          },
          "the matrix unit's accumulators as FP32 bit patterns (uint32)")
      .def_property_readonly("machine", [](const CheckpointObj& c) { return c.machine; })
      .def_property_readonly("program",
                             [](const CheckpointObj& c) { return ProgramObj{c.program}; })
      .def(
          "read",
          [](const CheckpointObj& c, const std::string& space) {
            const isa::Space s = to_space(space);
            const std::vector<uint8_t>& bytes = c.state.mem[static_cast<size_t>(s)];
            return typed_array(s, c.machine.get(), bytes,
                               bytes.size() / isa::unit_bytes(s, c.machine.get()));
          },
          pyb::arg("space"), "the whole memory `space`, typed as Engine.read returns it")
      .def(
          "differences",
          [](const CheckpointObj& a, const CheckpointObj& b, size_t max_lines) {
            return isa::state_differences(a.state, b.state, max_lines);
          },
          pyb::arg("other"), pyb::arg("max_lines") = 16,
          "one readable line per differing element (isa::state_differences)")
      .def("__eq__",
           [](const CheckpointObj& a, const CheckpointObj& b) {
             return isa::state_differences(a.state, b.state, 1).empty();
           })
      .def(
          "write",
          [](const CheckpointObj& c, const std::string& path) {
            isa::Checkpoint ck{isa::checkpoint_id(*c.spec, c.machine.get(), *c.program, *c.image),
                               c.state};
            try {
              isa::write_checkpoint(ck, *c.image, path);
            } catch (const std::runtime_error& e) {
              throw UsageError(e.what());
            }
          },
          pyb::arg("path"),
          "writes the checkpoint file (docs/checkpoints.md) that moesim cosim "
          "--from-checkpoint reads")
      .def("__repr__", [](const CheckpointObj& c) {
        return "<moesim.Checkpoint pc " + std::to_string(c.state.pc) + ", " +
               std::to_string(c.state.retired) + " retired, cycle " +
               std::to_string(c.state.cycle) + ">";
      });
  m.def(
      "read_checkpoint",
      [](const std::string& path, const pyb::object& program, const pyb::object& image,
         const pyb::object& machine, const pyb::object& spec) {
        const SpecPtr s = to_spec(spec);
        CheckpointObj c{{}, s, to_machine(machine, s), to_program(program, s), to_image(image)};
        const isa::CheckpointId id = isa::checkpoint_id(*s, c.machine.get(), *c.program, *c.image);
        c.state =
            isa::read_checkpoint(path, *c.image, &id, &c.machine.get(), c.program.get()).state;
        return c;
      },
      pyb::arg("path"), pyb::arg("program"), pyb::arg("image") = pyb::none(),
      pyb::arg("machine") = pyb::none(), pyb::arg("spec") = pyb::none(),
      "a checkpoint file of a run of `program` from `image` on `machine`; raises "
      "moesim.CheckpointError naming what differs");

  pyb::class_<EngineHandle>(m, "Engine",
                            "an isa::Engine: moesim.Golden or moesim.Rtl. close() (or the end of "
                            "a `with` block) ends it")
      .def_property_readonly("name", [](const EngineHandle& h) { return h.get().name(); })
      .def_property_readonly("machine",
                             [](const EngineHandle& h) {
                               h.get();
                               return h.machine;
                             })
      .def_property_readonly("closed", &EngineHandle::closed)
      .def_property_readonly(
          "program",
          [](const EngineHandle& h) -> pyb::object {
            h.get();
            if (!h.program) return pyb::none();
            return pyb::cast(ProgramObj{h.program});
          },
          "the program of the last load() or restore() (None before)")
      .def(
          "load",
          [](EngineHandle& h, const pyb::object& program, const pyb::object& image) {
            isa::Engine& e = h.get();
            ProgramPtr p = to_program(program, h.spec);
            ImagePtr img = to_image(image);
            h.program.reset();
            e.load(*p, *img);
            h.program = std::move(p);
            h.image = std::move(img);
          },
          pyb::arg("program"), pyb::arg("image") = pyb::none(),
          "loads a Program (or assembly text) and an initial Image (None: all memories zero); "
          "resets registers, cycles and counters")
      .def(
          "set_instruction_budget",
          [](EngineHandle& h, uint64_t budget) { h.get().set_instruction_budget(budget); },
          pyb::arg("budget"), "INSTRUCTION_BUDGET of the runs after the next load()")
      .def(
          "set_dma_queue", [](EngineHandle& h, uint64_t depth) { h.get().set_dma_queue(depth); },
          pyb::arg("depth"), "DMA_QUEUE of the runs after the next load() or restore()")
      .def(
          "step",
          [](EngineHandle& h) -> pyb::object {
            h.require_loaded("step");
            isa::Engine& e = h.get();
            RecordObj r{{}, h.spec};
            if (!e.step(r.record)) return pyb::none();
            cosim::fill_digests(e, r.record);
            return pyb::cast(std::move(r));
          },
          "runs to the next record (retire, trap or transfer) and returns it; None once the "
          "program has ended")
      .def(
          "run",
          [](EngineHandle& h, uint64_t max_instructions) {
            h.require_loaded("run");
            cosim::CosimOptions opts;
            opts.max_instructions = max_instructions;
            opts.progress_every = 4096;
            opts.progress = [](uint64_t, uint64_t) {
              if (PyErr_CheckSignals() != 0) throw pyb::error_already_set();
            };
            const cosim::RunResult res = cosim::run_single(*h.spec, h.get(), opts);
            nlohmann::json j = report::run_json(*h.spec, res);
            j["limit_reached"] = res.limit_reached;
            return json_to_python(j.dump());
          },
          pyb::arg("max_instructions") = 2000000,
          "runs to the end from where the engine is (moesim run); returns what its --report "
          "holds: engine, instructions, total_cycles, stages, units, trap, limit_reached")
      .def_property_readonly("halted", [](const EngineHandle& h) { return h.get().halted(); })
      .def_property_readonly("cycles", [](const EngineHandle& h) { return h.get().cycles(); })
      .def_property_readonly("retired", [](const EngineHandle& h) { return h.get().retired(); })
      .def_property_readonly("hbm_bytes_read",
                             [](const EngineHandle& h) { return h.get().hbm_bytes_read(); })
      .def_property_readonly("hbm_bytes_written",
                             [](const EngineHandle& h) { return h.get().hbm_bytes_written(); })
      .def_property_readonly("regs", [](const EngineHandle& h) { return RegsObj{h.get().regs()}; })
      .def(
          "size",
          [](const EngineHandle& h, const std::string& space) {
            return h.get().size(to_space(space));
          },
          pyb::arg("space"), "units in `space`")
      .def(
          "read",
          [](const EngineHandle& h, const std::string& space, uint64_t begin,
             const std::optional<uint64_t>& count) {
            const isa::Engine& e = h.get();
            const isa::Space s = to_space(space);
            const uint64_t n = default_count(e, s, begin, count);
            return typed_array(s, h.machine.get(), e.read(s, begin, n), n);
          },
          pyb::arg("space"), pyb::arg("begin") = 0, pyb::arg("count") = pyb::none(),
          "units [begin, begin + count) of `space` (count None: to the end) as a NumPy array: "
          "vram (rows, VLEN) uint16 BF16 bits; mram (codes (rows, MLEN) uint8 E4M3, scales "
          "(rows, MLEN/MX_BLOCK) uint8 E8M0); fp_sram uint16 BF16 bits; int_sram uint32; hbm "
          "uint8")
      .def(
          "write",
          [](EngineHandle& h, const std::string& space, uint64_t begin, const pyb::object& data) {
            h.require_loaded("write");
            isa::Engine& e = h.get();
            const isa::Space s = to_space(space);
            const std::vector<uint8_t> bytes = array_bytes(s, h.machine.get(), data);
            const uint64_t unit = isa::unit_bytes(s, h.machine.get());
            const uint64_t count = bytes.size() / unit, units = e.size(s);
            if (begin > units || count > units - begin)
              throw pyb::index_error(std::string("write of ") + isa::space_name(s) + " [" +
                                     std::to_string(begin) + ", +" + std::to_string(count) +
                                     ") outside its " + std::to_string(units) + " units");
            // The engine interface writes memory through a checkpoint: at an instruction boundary.
            isa::ArchState st = e.save();
            std::copy(
                bytes.begin(), bytes.end(),
                st.mem[static_cast<size_t>(s)].begin() + static_cast<ptrdiff_t>(begin * unit));
            e.restore(*h.program, st);
          },
          pyb::arg("space"), pyb::arg("begin"), pyb::arg("data"),
          "writes `data` (as read() returns it) at unit `begin`, at an instruction boundary: "
          "save(), the bytes, restore() (so the HBM byte counters start again from 0)")
      .def(
          "take_unit_spans",
          [](EngineHandle& h) {
            pyb::list l;
            for (const isa::UnitSpan& u : h.get().take_unit_spans())
              l.append(pyb::make_tuple(h.spec->units().at(u.unit), u.begin, u.end));
            return l;
          },
          "unit busy spans since the last call: [(unit, begin, end)]")
      .def(
          "save",
          [](const EngineHandle& h) {
            h.require_loaded("save");
            return CheckpointObj{h.get().save(), h.spec, h.machine, h.program, h.image};
          },
          "the architectural state now (a moesim.Checkpoint)")
      .def(
          "restore",
          [](EngineHandle& h, const CheckpointObj& c, const pyb::object& program) {
            isa::Engine& e = h.get();
            ProgramPtr p = program.is_none() ? c.program : to_program(program, h.spec);
            h.program.reset();
            e.restore(*p, c.state);
            h.program = std::move(p);
            h.image = c.image;
          },
          pyb::arg("checkpoint"), pyb::arg("program") = pyb::none(),
          "puts the engine in the checkpoint's state with its program (or `program`)")
      .def("close", &EngineHandle::close,
           "ends the engine (Rtl: destroyed; Golden: handed back to the process)")
      .def("__enter__",
           [](pyb::object self) {
             self.cast<EngineHandle&>().get();
             return self;
           })
      .def("__exit__", [](EngineHandle& h, const pyb::args&) { h.close(); })
      .def("__repr__", [](const EngineHandle& h) {
        if (h.closed()) return "<moesim." + h.kind + " closed>";
        return "<moesim." + h.kind + " " + h.machine.get().name + ", " +
               std::to_string(h.get().retired()) + " retired, cycle " +
               std::to_string(h.get().cycles()) + ">";
      });

  pyb::class_<GoldenHandle, EngineHandle>(
      m, "Golden",
      "the SystemC golden model. SystemC elaborates one design per process: the process has "
      "one golden model, for one machine (the first one asked for, up to INSTRUCTION_BUDGET and "
      "DMA_QUEUE), used by one open moesim.Golden at a time; anything else raises "
      "moesim.GoldenError")
      .def(pyb::init([](const pyb::object& machine, const std::optional<uint64_t>& dma_queue,
                        const pyb::object& spec) {
             const SpecPtr s = to_spec(spec);
             Machine mach = to_machine(machine, s);
             if (dma_queue) mach = with_dma_queue(mach, *dma_queue);
             return std::make_unique<GoldenHandle>(s, mach);
           }),
           pyb::arg("machine") = pyb::none(), pyb::arg("dma_queue") = pyb::none(),
           pyb::arg("spec") = pyb::none());

  pyb::class_<RtlHandle, EngineHandle>(
      m, "Rtl",
      "the Verilated RTL for a machine preset the build has a model for (moesim.rtl_presets()); "
      "any number at once")
      .def(pyb::init([](const pyb::object& machine, const std::optional<uint64_t>& dma_queue,
                        const std::string& fst,
                        const std::optional<std::pair<uint64_t, uint64_t>>& window,
                        bool window_retires, const pyb::object& spec) {
             const SpecPtr s = to_spec(spec);
             Machine mach = to_machine(machine, s);
             if (dma_queue) mach = with_dma_queue(mach, *dma_queue);
             cosim::TraceWindow w;
             if (window) {
               w.begin = window->first;
               w.end = window->second;
             }
             w.retires = window_retires;
             return std::make_unique<RtlHandle>(s, mach, fst, w);
           }),
           pyb::arg("machine") = pyb::none(), pyb::arg("dma_queue") = pyb::none(),
           pyb::arg("fst") = "", pyb::arg("trace_window") = pyb::none(),
           pyb::arg("trace_retires") = false, pyb::arg("spec") = pyb::none(),
           "fst: write Verilator's FST of every signal there (--trace-rtl), of cycles "
           "trace_window = (begin, end), or of those retires with trace_retires");

  m.def(
      "rtl_presets", [] { return cosim::rtl_built_presets(); },
      "machine presets this build Verilated an RTL model for");
  m.def(
      "rtl_runnable_presets",
      [](const pyb::object& spec) { return cosim::rtl_runnable_presets(*to_spec(spec)); },
      pyb::arg("spec") = pyb::none(), "machine presets the RTL models of this build run");
}

}  // namespace moesim::py
