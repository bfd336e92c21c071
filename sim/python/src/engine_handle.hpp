// The engines as Python sees them (docs/python.md, Engines): a handle on an isa::Engine made by
// the cosim factories, and the one golden model of the process. Internal to sim/python.
#pragma once

#include <memory>
#include <string>

#include "common.hpp"
#include "moesim/cosim/engines.hpp"
#include "moesim/isa/engine.hpp"
#include "moesim/isa/trace.hpp"

namespace moesim::py {

/// The golden model of the process. SystemC elaborates one design per process (a second
/// GoldenModel throws), so the module makes it once, keeps it to the end of the process (it is
/// never destroyed: SystemC's teardown at exit is not ours to order), and lends it to one user at
/// a time: a moesim.Golden, or a cosim / conformance run that was given no golden engine. A user
/// gets it reset (an empty program loaded: memories zero, registers at reset) with the
/// run-time parameters (INSTRUCTION_BUDGET, DMA_QUEUE) of its machine. Throws GoldenError when
/// it is lent already, or when it was elaborated for a machine that differs in more than those.
class GoldenLease {
 public:
  GoldenLease(const SpecPtr& spec, const Machine& machine, const std::string& user);
  ~GoldenLease();
  GoldenLease(const GoldenLease&) = delete;
  GoldenLease& operator=(const GoldenLease&) = delete;
  isa::Engine& engine() const { return *engine_; }

 private:
  isa::Engine* engine_ = nullptr;
};

/// One engine as a Python object (moesim.Golden, moesim.Rtl). close() ends it: an RTL model is
/// destroyed, the golden model goes back to the process (GoldenLease). Every call on a closed
/// handle raises moesim.ClosedError.
class EngineHandle {
 public:
  EngineHandle(SpecPtr spec, Machine machine)
      : spec(std::move(spec)), machine(std::move(machine)) {}
  virtual ~EngineHandle() = default;
  EngineHandle(const EngineHandle&) = delete;
  EngineHandle& operator=(const EngineHandle&) = delete;

  /// The engine; raises ClosedError after close().
  isa::Engine& get() const;
  /// Raises unless a program was loaded (or restored).
  void require_loaded(const char* what) const;
  /// Ends the engine (refused while a lockstep run uses it).
  void close();
  bool closed() const { return engine_ == nullptr; }

  SpecPtr spec;
  Machine machine;
  ProgramPtr program;  ///< of the last load() or restore()
  ImagePtr image;      ///< the initial image of the last load() (a restore keeps the checkpoint's)
  int users = 0;       ///< lockstep runs that use the engine (close() refused while > 0)
  std::string kind;    ///< "Golden" or "Rtl"

 protected:
  isa::Engine* engine_ = nullptr;
  std::unique_ptr<isa::Engine> rtl_;
  std::unique_ptr<GoldenLease> golden_;
};

/// moesim.Golden: the golden model of the process (GoldenLease) for `machine`.
class GoldenHandle : public EngineHandle {
 public:
  GoldenHandle(const SpecPtr& spec, const Machine& machine);
};

/// moesim.Rtl: a Verilated model for `machine` (cosim::make_rtl_engine), with an FST of
/// `window` when `fst_path` is not empty.
class RtlHandle : public EngineHandle {
 public:
  RtlHandle(const SpecPtr& spec, const Machine& machine, const std::string& fst_path,
            const cosim::TraceWindow& window);
};

/// A retire record with the spec that decodes it (moesim.Record).
struct RecordObj {
  isa::RetireRecord record;
  SpecPtr spec;
};

}  // namespace moesim::py
