// Shared by the binding files of the moesim Python module (docs/python.md): the Python-side
// holders of spec objects, programs and images, the exception classes, and the conversions
// between memory bytes and NumPy arrays. Internal to sim/python.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "moesim/isa/program.hpp"
#include "moesim/isa/spec.hpp"
#include "moesim/isa/trace.hpp"

namespace moesim::py {

namespace pyb = pybind11;

/// A loaded spec (isa.yaml, machine.yaml, stages.yaml). Engines keep a reference to theirs.
using SpecPtr = std::shared_ptr<const isa::Spec>;

/// The spec compiled in (isa::Spec::builtin()), or the one $MOESIM_ISA_SPEC_DIR names.
SpecPtr builtin_spec();

/// Python's moesim.Spec.
struct SpecObj {
  SpecPtr spec;
};
/// `obj`: a Spec, or None (the built-in spec).
SpecPtr to_spec(const pyb::handle& obj);

/// A machine preset together with the spec it comes from. Engines keep a reference to their
/// preset, so a Machine's preset never changes and lives as long as a holder.
struct Machine {
  SpecPtr spec;
  std::shared_ptr<const isa::MachinePreset> preset;
  const isa::MachinePreset& get() const { return *preset; }
};

/// `obj`: a Machine, or a preset name of `spec` (None: "default"). A name machine.yaml does not
/// have is a UsageError with the CLI's text ("unknown --machine 'X' (machine.yaml presets: ...)").
Machine to_machine(const pyb::handle& obj, const SpecPtr& spec);
/// `m` with DMA_QUEUE = depth (the CLI's --dma-queue: a preset copy with the same name).
Machine with_dma_queue(const Machine& m, uint64_t depth);

/// A program (Program objects of the module share it; nothing mutates it after creation).
using ProgramPtr = std::shared_ptr<const isa::Program>;
/// An initial memory image (Image objects may grow: add()).
using ImagePtr = std::shared_ptr<isa::MemoryImage>;

/// Python's moesim.Program and moesim.Image.
struct ProgramObj {
  ProgramPtr program;
};
struct ImageObj {
  ImagePtr image;
};

/// `obj`: a Program, or assembly text (assembled with `spec`, named "<input>").
ProgramPtr to_program(const pyb::handle& obj, const SpecPtr& spec);
/// `obj`: an Image or None (an empty image: every memory zero).
ImagePtr to_image(const pyb::handle& obj);

/// "vram", "mram", "fp_sram", "int_sram", "hbm" (isa::space_name). Throws ValueError.
isa::Space to_space(const std::string& name);

/// Memory of `space` as its typed NumPy array: vram (count, VLEN) uint16 (BF16 bits); mram a
/// tuple (codes (count, MLEN) uint8 E4M3, scales (count, MLEN/MX_BLOCK) uint8 E8M0); fp_sram
/// (count,) uint16 (BF16 bits); int_sram (count,) uint32; hbm (count,) uint8. `bytes` holds
/// `count` units in the byte image layout of isa::Space.
pyb::object typed_array(isa::Space space, const isa::MachinePreset& preset,
                        const std::vector<uint8_t>& bytes, uint64_t count);
/// The reverse: the bytes of `data` for `space`, a whole number of units; `data` must have the
/// space's dtype (mram: a (codes, scales) tuple, or uint8 rows of MLEN + MLEN/MX_BLOCK bytes).
/// Throws TypeError for another dtype, ValueError for a size that is not whole units.
std::vector<uint8_t> array_bytes(isa::Space space, const isa::MachinePreset& preset,
                                 const pyb::handle& data);

/// No golden engine can be had (moesim.GoldenError): engine_handle.hpp, GoldenLease.
struct GoldenUnavailable : std::runtime_error {
  using std::runtime_error::runtime_error;
};
/// An operation on a closed engine or lockstep run (moesim.ClosedError).
struct Closed : std::logic_error {
  using std::logic_error::logic_error;
};

/// The module's exception classes (created in module.cpp).
struct Errors {
  pyb::object error, usage, asm_error, spec, checkpoint, golden, closed;
};
const Errors& errors();

/// A Python dict / list from a JSON tree (nlohmann::json dumped and read by Python's json).
pyb::object json_to_python(const std::string& dumped);

void bind_spec(pyb::module_& m);
void bind_engine(pyb::module_& m);
void bind_run(pyb::module_& m);

}  // namespace moesim::py
