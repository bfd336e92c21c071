// Bindings of isa_spec: Spec and Machine, Program and the assembler, Image, the numerics helpers
// (docs/python.md).
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "cli_output.hpp"
#include "common.hpp"
#include "moesim/isa/assembler.hpp"
#include "moesim/isa/format.hpp"
#include "moesim/isa/geometry.hpp"
#include "moesim/isa/image_file.hpp"
#include "moesim/isa/input_file.hpp"
#include "moesim/isa/numerics.hpp"
#include "moesim/isa/usage_error.hpp"

namespace moesim::py {

namespace fs = std::filesystem;

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "memory arrays are the engines' little-endian bytes viewed in place");

SpecPtr to_spec(const pyb::handle& obj) {
  if (obj.is_none()) return builtin_spec();
  if (!pyb::isinstance<SpecObj>(obj))
    throw pyb::type_error("spec: expected a moesim.Spec or None, got " +
                          std::string(pyb::str(obj.get_type().attr("__name__"))));
  return obj.cast<const SpecObj&>().spec;
}

Machine to_machine(const pyb::handle& obj, const SpecPtr& spec) {
  if (pyb::isinstance<Machine>(obj)) return obj.cast<Machine>();
  if (!obj.is_none() && !pyb::isinstance<pyb::str>(obj))
    throw pyb::type_error("machine: expected a preset name or a moesim.Machine, got " +
                          std::string(pyb::str(obj.get_type().attr("__name__"))));
  const std::string name = obj.is_none() ? "default" : obj.cast<std::string>();
  // The CLI's lookup and its refusal ("unknown --machine 'X' (machine.yaml presets: ...)").
  const isa::MachinePreset& p = cli::machine_preset(*spec, name);
  // The preset lives in the spec, which the Machine holds.
  return Machine{spec, std::shared_ptr<const isa::MachinePreset>(spec, &p)};
}

Machine with_dma_queue(const Machine& m, uint64_t depth) {
  auto p = std::make_shared<isa::MachinePreset>(m.get());
  p->params["DMA_QUEUE"] = static_cast<int64_t>(m.spec->checked_dma_queue(depth));
  return Machine{m.spec, p};
}

/// Assembles `text` (named `file`) in `syntax` ("moesim" or "plena", the CLI's --syntax); each
/// warning of the PLENA syntax becomes a Python UserWarning.
ProgramObj assemble_in(const isa::Spec& spec, const std::string& text, const std::string& file,
                       const std::string& syntax) {
  if (syntax != "moesim" && syntax != "plena")
    throw pyb::value_error("syntax: expected 'moesim' or 'plena', got '" + syntax + "'");
  std::vector<std::string> warnings;
  isa::AsmOptions o;
  o.syntax = syntax == "plena" ? isa::Syntax::plena : isa::Syntax::moesim;
  o.warnings = &warnings;
  ProgramObj p{std::make_shared<const isa::Program>(isa::assemble(spec, text, file, o))};
  for (const std::string& w : warnings)
    if (PyErr_WarnEx(PyExc_UserWarning, w.c_str(), 1) != 0) throw pyb::error_already_set();
  return p;
}

ProgramPtr to_program(const pyb::handle& obj, const SpecPtr& spec) {
  if (pyb::isinstance<ProgramObj>(obj)) return obj.cast<const ProgramObj&>().program;
  if (pyb::isinstance<pyb::str>(obj))
    return std::make_shared<const isa::Program>(isa::assemble(*spec, obj.cast<std::string>()));
  throw pyb::type_error("program: expected a moesim.Program or assembly text, got " +
                        std::string(pyb::str(obj.get_type().attr("__name__"))));
}

ImagePtr to_image(const pyb::handle& obj) {
  if (obj.is_none()) return std::make_shared<isa::MemoryImage>();
  if (pyb::isinstance<ImageObj>(obj)) return obj.cast<const ImageObj&>().image;
  throw pyb::type_error("image: expected a moesim.Image or None, got " +
                        std::string(pyb::str(obj.get_type().attr("__name__"))));
}

isa::Space to_space(const std::string& name) {
  for (isa::Space s : isa::kAllSpaces)
    if (name == isa::space_name(s)) return s;
  throw pyb::value_error("unknown memory space '" + name +
                         "' (spaces: vram, mram, fp_sram, int_sram, hbm)");
}

namespace {

template <class T>
pyb::array_t<T> array_of(const uint8_t* data, std::vector<pyb::ssize_t> shape) {
  pyb::array_t<T> a(shape);
  std::memcpy(a.mutable_data(), data, static_cast<size_t>(a.nbytes()));
  return a;
}

/// MLEN, and the scale bytes of one MRAM row (MLEN / MX_BLOCK).
std::pair<pyb::ssize_t, pyb::ssize_t> mram_row(const isa::MachinePreset& preset) {
  return {static_cast<pyb::ssize_t>(preset.mlen()),
          static_cast<pyb::ssize_t>(preset.mlen() / preset.mx_block())};
}

const char* dtype_name(isa::Space space) {
  switch (space) {
    case isa::Space::Vram:
    case isa::Space::FpSram:
      return "uint16 (BF16 bits)";
    case isa::Space::IntSram:
      return "uint32";
    default:
      return "uint8";
  }
}

bool has_dtype(const pyb::array& a, isa::Space space) {
  switch (space) {
    case isa::Space::Vram:
    case isa::Space::FpSram:
      return a.dtype().is(pyb::dtype::of<uint16_t>());
    case isa::Space::IntSram:
      return a.dtype().is(pyb::dtype::of<uint32_t>());
    default:
      return a.dtype().is(pyb::dtype::of<uint8_t>());
  }
}

/// The bytes of a NumPy array of `space`'s dtype, in C order.
std::vector<uint8_t> raw_bytes(isa::Space space, const pyb::handle& h, const std::string& what) {
  if (space == isa::Space::Hbm && pyb::isinstance<pyb::bytes>(h)) {
    const std::string s = h.cast<std::string>();
    return std::vector<uint8_t>(s.begin(), s.end());
  }
  if (space == isa::Space::Hbm && pyb::isinstance<pyb::bytearray>(h)) {
    const auto* p = reinterpret_cast<const uint8_t*>(PyByteArray_AsString(h.ptr()));
    return std::vector<uint8_t>(p, p + PyByteArray_Size(h.ptr()));
  }
  if (!pyb::isinstance<pyb::array>(h))
    throw pyb::type_error(what + ": expected a NumPy array of " + dtype_name(space) + ", got " +
                          std::string(pyb::str(h.get_type().attr("__name__"))));
  const auto a = h.cast<pyb::array>();
  if (!has_dtype(a, space))
    throw pyb::type_error(what + ": " + isa::space_name(space) + " takes " + dtype_name(space) +
                          ", got dtype " + std::string(pyb::str(a.dtype())));
  const pyb::array c = pyb::module_::import("numpy").attr("ascontiguousarray")(a);
  const auto* p = static_cast<const uint8_t*>(c.data());
  return std::vector<uint8_t>(p, p + c.nbytes());
}

}  // namespace

pyb::object typed_array(isa::Space space, const isa::MachinePreset& preset,
                        const std::vector<uint8_t>& bytes, uint64_t count) {
  const auto n = static_cast<pyb::ssize_t>(count);
  switch (space) {
    case isa::Space::Vram:
      return array_of<uint16_t>(bytes.data(), {n, static_cast<pyb::ssize_t>(preset.vlen())});
    case isa::Space::Mram: {
      const auto [mlen, scales] = mram_row(preset);
      pyb::array_t<uint8_t> codes({n, mlen}), sc({n, scales});
      for (pyb::ssize_t r = 0; r < n; ++r) {
        const uint8_t* row = bytes.data() + r * (mlen + scales);
        std::memcpy(codes.mutable_data(r, 0), row, static_cast<size_t>(mlen));
        if (scales != 0)
          std::memcpy(sc.mutable_data(r, 0), row + mlen, static_cast<size_t>(scales));
      }
      return pyb::make_tuple(codes, sc);
    }
    case isa::Space::FpSram:
      return array_of<uint16_t>(bytes.data(), {n});
    case isa::Space::IntSram:
      return array_of<uint32_t>(bytes.data(), {n});
    case isa::Space::Hbm:
      return array_of<uint8_t>(bytes.data(), {n});
  }
  throw std::logic_error("typed_array: unknown space");
}

std::vector<uint8_t> array_bytes(isa::Space space, const isa::MachinePreset& preset,
                                 const pyb::handle& data) {
  const uint64_t unit = isa::unit_bytes(space, preset);
  std::vector<uint8_t> out;
  if (space == isa::Space::Mram && pyb::isinstance<pyb::tuple>(data)) {
    const auto t = data.cast<pyb::tuple>();
    if (t.size() != 2) throw pyb::type_error("mram data: expected a (codes, scales) tuple");
    const std::vector<uint8_t> codes = raw_bytes(space, t[0], "mram codes");
    const std::vector<uint8_t> scales = raw_bytes(space, t[1], "mram scales");
    const auto [mlen, per_row] = mram_row(preset);
    if (codes.size() % static_cast<size_t>(mlen) != 0 ||
        scales.size() != codes.size() / static_cast<size_t>(mlen) * static_cast<size_t>(per_row))
      throw pyb::value_error("mram data: " + std::to_string(codes.size()) + " codes and " +
                             std::to_string(scales.size()) +
                             " scales are not whole rows of MLEN = " + std::to_string(mlen) +
                             " codes and " + std::to_string(per_row) + " scales");
    const size_t rows = codes.size() / static_cast<size_t>(mlen);
    for (size_t r = 0; r < rows; ++r) {
      out.insert(out.end(), codes.begin() + static_cast<ptrdiff_t>(r * mlen),
                 codes.begin() + static_cast<ptrdiff_t>((r + 1) * mlen));
      out.insert(out.end(), scales.begin() + static_cast<ptrdiff_t>(r * per_row),
                 scales.begin() + static_cast<ptrdiff_t>((r + 1) * per_row));
    }
    return out;
  }
  out = raw_bytes(space, data, std::string(isa::space_name(space)) + " data");
  if (out.size() % unit != 0)
    throw pyb::value_error(std::string(isa::space_name(space)) +
                           " data: " + std::to_string(out.size()) +
                           " bytes are not whole units of " + std::to_string(unit) + " bytes (" +
                           isa::space_name(space) + " " + isa::unit_noun(space) + "s)");
  return out;
}

namespace {

pyb::dict instruction_dict(const isa::Spec& spec, const isa::InstrSpec& ins) {
  pyb::list ops;
  for (const isa::OperandSpec& o : ins.operands)
    ops.append(pyb::dict(pyb::arg("name") = o.name, pyb::arg("field") = o.field,
                         pyb::arg("kind") = spec.operand_kind(o.kind).name,
                         pyb::arg("optional") = o.optional, pyb::arg("allowed") = o.allowed));
  return pyb::dict(pyb::arg("mnemonic") = ins.mnemonic, pyb::arg("opcode") = ins.opcode,
                   pyb::arg("unit") = ins.unit, pyb::arg("operands") = ops,
                   pyb::arg("semantics") = ins.semantics, pyb::arg("traps") = ins.traps,
                   pyb::arg("latency") = ins.latency_text);
}

/// Per-element map of a NumPy array (any shape) through `f`.
template <class In, class Out, class F>
pyb::array_t<Out> map_array(const pyb::handle& h, const char* what, F f) {
  if (!pyb::isinstance<pyb::array>(h) || !h.cast<pyb::array>().dtype().is(pyb::dtype::of<In>()))
    throw pyb::type_error(std::string(what) + ": expected a NumPy array of " +
                          std::string(pyb::str(pyb::dtype::of<In>())));
  const auto in = pyb::array_t<In, pyb::array::c_style>::ensure(h);
  std::vector<pyb::ssize_t> shape(in.shape(), in.shape() + in.ndim());
  pyb::array_t<Out> out(shape);
  const In* src = in.data();
  Out* dst = out.mutable_data();
  for (pyb::ssize_t i = 0; i < in.size(); ++i) dst[i] = f(src[i]);
  return out;
}

std::string type_name(const pyb::handle& h) {
  return std::string(pyb::str(h.get_type().attr("__name__")));
}

}  // namespace

void bind_spec(pyb::module_& m) {
  pyb::class_<SpecObj>(m, "Spec",
                       "isa.yaml, machine.yaml and stages.yaml, loaded and checked "
                       "(isa::Spec). Spec() is the built-in one; Spec(dir) loads another.")
      .def(pyb::init([](const std::optional<std::string>& dir) {
             if (!dir) return SpecObj{builtin_spec()};
             return SpecObj{std::make_shared<const isa::Spec>(isa::Spec::load(*dir))};
           }),
           pyb::arg("dir") = pyb::none())
      .def_property_readonly("dir", [](const SpecObj& s) { return s.spec->dir.string(); })
      .def_property_readonly("version", [](const SpecObj& s) { return s.spec->version(); })
      .def_property_readonly("word_bits", [](const SpecObj& s) { return s.spec->word_bits(); })
      .def_property_readonly("units", [](const SpecObj& s) { return s.spec->units(); })
      .def_property_readonly(
          "presets",
          [](const SpecObj& s) {
            std::vector<std::string> n;
            for (const auto& [name, p] : s.spec->presets()) n.push_back(name);
            return n;
          },
          "machine.yaml preset names")
      .def(
          "machine",
          [](const SpecObj& s, const std::string& name) {
            return to_machine(pyb::str(name), s.spec);
          },
          pyb::arg("name") = "default", "the machine preset `name` (a moesim.Machine)")
      .def_property_readonly("instructions",
                             [](const SpecObj& s) {
                               pyb::list l;
                               for (const auto& i : s.spec->instructions())
                                 l.append(instruction_dict(*s.spec, i));
                               return l;
                             })
      .def(
          "instruction",
          [](const SpecObj& s, const std::string& mnemonic) {
            const isa::InstrSpec* i = s.spec->by_mnemonic(mnemonic);
            if (i == nullptr) throw pyb::key_error("no instruction " + mnemonic + " in isa.yaml");
            return instruction_dict(*s.spec, *i);
          },
          pyb::arg("mnemonic"))
      .def_property_readonly(
          "traps",
          [](const SpecObj& s) {
            pyb::list l;
            for (const auto& t : s.spec->traps())
              l.append(pyb::dict(pyb::arg("name") = t.name, pyb::arg("code") = t.code,
                                 pyb::arg("doc") = t.doc));
            return l;
          })
      .def_property_readonly(
          "stages",
          [](const SpecObj& s) {
            pyb::list l;
            for (const auto& t : s.spec->stages())
              l.append(pyb::dict(pyb::arg("name") = t.name, pyb::arg("code") = t.code,
                                 pyb::arg("group") = t.group, pyb::arg("doc") = t.doc));
            return l;
          })
      .def(
          "stage_name", [](const SpecObj& s, uint8_t code) { return s.spec->stage_name(code); },
          pyb::arg("code"))
      .def_property_readonly("parameters", [](const SpecObj& s) { return s.spec->parameters(); })
      .def_property_readonly("runtime_parameters",
                             [](const SpecObj& s) { return s.spec->runtime_parameters(); })
      .def_property_readonly(
          "control_registers",
          [](const SpecObj& s) {
            pyb::list l;
            for (const auto& c : s.spec->control_registers()) {
              pyb::list fields;
              for (const auto& f : c.fields)
                fields.append(pyb::dict(pyb::arg("name") = f.name, pyb::arg("hi") = f.hi,
                                        pyb::arg("lo") = f.lo, pyb::arg("doc") = f.doc));
              l.append(pyb::dict(pyb::arg("name") = c.name, pyb::arg("index") = c.index,
                                 pyb::arg("reset") = c.reset, pyb::arg("written_by") = c.written_by,
                                 pyb::arg("doc") = c.doc, pyb::arg("fields") = fields));
            }
            return l;
          })
      .def_property_readonly("fp32_constants",
                             [](const SpecObj& s) {
                               pyb::dict d;
                               for (const auto& c : s.spec->fp32_constants())
                                 d[c.name.c_str()] = c.bits;
                               return d;
                             })
      .def(
          "latency",
          [](const SpecObj& s, const std::string& mnemonic, const pyb::object& machine,
             const std::map<std::string, int64_t>& dyn) {
            const isa::InstrSpec* i = s.spec->by_mnemonic(mnemonic);
            if (i == nullptr) throw pyb::key_error("no instruction " + mnemonic + " in isa.yaml");
            return s.spec->latency(*i, to_machine(machine, s.spec).get(), dyn);
          },
          pyb::arg("mnemonic"), pyb::arg("machine") = pyb::none(),
          pyb::arg("dynamic") = std::map<std::string, int64_t>{},
          "cycles of `mnemonic` on `machine` (isa.yaml latency formula; `dynamic` gives its "
          "run-time variables, e.g. {'E': 32, 'k': 4})")
      .def("__repr__",
           [](const SpecObj& s) { return "<moesim.Spec " + s.spec->dir.string() + ">"; });
  m.def(
      "spec", [] { return SpecObj{builtin_spec()}; }, "the built-in moesim.Spec");

  pyb::class_<Machine>(m, "Machine", "a machine preset of machine.yaml (Spec.machine(name))")
      .def_property_readonly("name", [](const Machine& x) { return x.get().name; })
      .def_property_readonly("params", [](const Machine& x) { return x.get().params; })
      .def("__getitem__",
           [](const Machine& x, const std::string& key) {
             const auto it = x.get().params.find(key);
             if (it == x.get().params.end())
               throw pyb::key_error("machine " + x.get().name + " has no parameter " + key);
             return it->second;
           })
      .def_property_readonly("spec", [](const Machine& x) { return SpecObj{x.spec}; })
      .def(
          "size",
          [](const Machine& x, const std::string& space) {
            return isa::space_units(to_space(space), x.get());
          },
          pyb::arg("space"), "units in `space` (rows, words or bytes)")
      .def(
          "unit_bytes",
          [](const Machine& x, const std::string& space) {
            return isa::unit_bytes(to_space(space), x.get());
          },
          pyb::arg("space"), "bytes per unit of `space`")
      .def("with_dma_queue", &with_dma_queue, pyb::arg("depth"),
           "a copy with DMA_QUEUE = depth (the CLI's --dma-queue)")
      .def("__eq__",
           [](const Machine& a, const Machine& b) {
             return a.get().name == b.get().name && a.get().params == b.get().params;
           })
      .def("__repr__", [](const Machine& x) {
        return "<moesim.Machine " + x.get().name +
               " DMA_QUEUE=" + std::to_string(x.get().get("DMA_QUEUE")) + ">";
      });

  pyb::class_<ProgramObj>(m, "Program",
                          "an assembled program: words, stage codes, source lines, work tags")
      .def(pyb::init([](const pyb::array_t<uint32_t, pyb::array::c_style>& words,
                        const std::optional<pyb::array_t<uint8_t, pyb::array::c_style>>& stages,
                        const std::string& source) {
             auto p = std::make_shared<isa::Program>();
             p->words.assign(words.data(), words.data() + words.size());
             if (stages) {
               if (stages->size() != words.size())
                 throw pyb::value_error("Program: " + std::to_string(words.size()) + " words but " +
                                        std::to_string(stages->size()) + " stage codes");
               p->stages.assign(stages->data(), stages->data() + stages->size());
             } else {
               p->stages.assign(p->words.size(), 0);
             }
             p->lines.assign(p->words.size(), 0);
             p->source = source;
             return ProgramObj{p};
           }),
           pyb::arg("words"), pyb::arg("stages") = pyb::none(), pyb::arg("source") = "<words>")
      .def_static(
          "read",
          [](const std::string& path, const pyb::object& spec, const std::string& syntax) {
            // As moesim asm / disasm / --program read it: a .hex (with its .stages beside) is an
            // assembled program, any other name assembly.
            if (fs::path(path).extension() != ".hex")
              return assemble_in(*to_spec(spec),
                                 isa::read_input_file(path, isa::kMaxTextInputBytes), path, syntax);
            if (syntax != "moesim")
              throw UsageError("syntax " + syntax + ": " + path +
                               " is an assembled program (.hex); the syntax applies to assembly");
            try {
              return ProgramObj{std::make_shared<const isa::Program>(isa::read_program(path))};
            } catch (const std::runtime_error& e) {
              throw UsageError(e.what());
            }
          },
          pyb::arg("path"), pyb::arg("spec") = pyb::none(), pyb::arg("syntax") = "moesim",
          "a .hex program (its .stages beside), or an assembly file in `syntax` (moesim or plena)")
      .def(
          "write",
          [](const ProgramObj& p, const std::string& path) {
            try {
              isa::write_program(*p.program, path);
            } catch (const std::runtime_error& e) {
              throw UsageError(std::string("-o: ") + e.what());
            }
          },
          pyb::arg("path"), "writes PATH.hex and PATH.stages beside it (moesim asm's output)")
      .def_property_readonly("words",
                             [](const ProgramObj& p) {
                               return pyb::array_t<uint32_t>(
                                   static_cast<pyb::ssize_t>(p.program->words.size()),
                                   p.program->words.data());
                             })
      .def_property_readonly("stages",
                             [](const ProgramObj& p) {
                               return pyb::array_t<uint8_t>(
                                   static_cast<pyb::ssize_t>(p.program->stages.size()),
                                   p.program->stages.data());
                             })
      .def_property_readonly("lines", [](const ProgramObj& p) { return p.program->lines; })
      .def_property_readonly("source", [](const ProgramObj& p) { return p.program->source; })
      .def_property_readonly(
          "work",
          [](const ProgramObj& p) {
            std::vector<std::string> w;
            for (const isa::WorkTag& t : p.program->work) w.push_back(isa::format_work_tag(t));
            return w;
          },
          "per instruction, its `@pair=` tag ('T,S,E'; '-' none); empty when "
          "the program has none")
      .def("__len__", [](const ProgramObj& p) { return p.program->size(); })
      .def("__eq__",
           [](const ProgramObj& a, const ProgramObj& b) {
             return a.program->words == b.program->words &&
                    a.program->stages == b.program->stages && a.program->work == b.program->work;
           })
      .def(
          "disassemble",
          [](const ProgramObj& p, const pyb::object& spec) {
            return isa::disassemble(*to_spec(spec), *p.program);
          },
          pyb::arg("spec") = pyb::none())
      .def("__repr__", [](const ProgramObj& p) {
        return "<moesim.Program " + p.program->source + ", " + std::to_string(p.program->size()) +
               " instructions>";
      });

  m.def(
      "assemble",
      [](const std::string& text, const std::string& file, const pyb::object& spec,
         const std::string& syntax) { return assemble_in(*to_spec(spec), text, file, syntax); },
      pyb::arg("text"), pyb::arg("file") = "<input>", pyb::arg("spec") = pyb::none(),
      pyb::arg("syntax") = "moesim",
      "assembles PLENA syntax with `; @stage=` and `; @pair=` markers (syntax='plena': also the "
      "forms PLENA's compiler writes, a UserWarning where PLENA's meaning differs); an error "
      "raises moesim.AsmError 'file:line:col: message'");
  m.def(
      "assemble_file",
      [](const std::string& path, const pyb::object& spec, const std::string& syntax) {
        return assemble_in(*to_spec(spec), isa::read_input_file(path, isa::kMaxTextInputBytes),
                           path, syntax);
      },
      pyb::arg("path"), pyb::arg("spec") = pyb::none(), pyb::arg("syntax") = "moesim");
  m.def(
      "disassemble",
      [](const pyb::object& x, const pyb::object& spec) -> std::string {
        const SpecPtr s = to_spec(spec);
        if (pyb::isinstance<ProgramObj>(x))
          return isa::disassemble(*s, *x.cast<const ProgramObj&>().program);
        if (pyb::isinstance<pyb::int_>(x)) {
          const auto v = x.cast<long long>();
          if (v < 0 || v > 0xFFFFFFFFll) throw pyb::value_error("disassemble: not a 32-bit word");
          return isa::disassemble(*s, static_cast<uint32_t>(v));
        }
        if (pyb::isinstance<pyb::str>(x) || pyb::isinstance<pyb::bytes>(x))
          throw pyb::type_error(
              "disassemble: expected a word, a sequence of words or a Program, got " +
              type_name(x));
        isa::Program p;
        try {
          const auto a =
              pyb::array_t<int64_t, pyb::array::c_style | pyb::array::forcecast>::ensure(x);
          if (!a || a.ndim() != 1) throw pyb::cast_error();
          for (pyb::ssize_t i = 0; i < a.size(); ++i) {
            if (a.data()[i] < 0 || a.data()[i] > 0xFFFFFFFFll)
              throw pyb::value_error("disassemble: word " + std::to_string(i) +
                                     " is not a 32-bit word");
            p.words.push_back(static_cast<uint32_t>(a.data()[i]));
          }
        } catch (const pyb::cast_error&) {
          throw pyb::type_error(
              "disassemble: expected a word, a sequence of words or a Program, got " +
              type_name(x));
        } catch (const pyb::error_already_set&) {
          throw pyb::type_error(
              "disassemble: expected a word, a sequence of words or a Program, got " +
              type_name(x));
        }
        p.stages.assign(p.words.size(), 0);
        return isa::disassemble(*s, p);
      },
      pyb::arg("words"), pyb::arg("spec") = pyb::none(),
      "one word: its instruction text; words or a Program: the whole program with stage and "
      "pair markers (re-assembles to the same words, stages and tags)");

  pyb::class_<ImageObj>(m, "Image",
                        "initial memories: segments of bytes per space (isa::MemoryImage); "
                        "every byte no segment covers is 0")
      .def(pyb::init([] { return ImageObj{std::make_shared<isa::MemoryImage>()}; }))
      .def(
          "add",
          [](ImageObj& img, const std::string& space, uint64_t begin, const pyb::object& data,
             const pyb::object& machine, const pyb::object& spec) {
            const Machine mach = to_machine(machine, to_spec(spec));
            const isa::Space s = to_space(space);
            const isa::SpaceGeometry g = isa::space_geometry(s, mach.get());
            std::vector<uint8_t> bytes = array_bytes(s, mach.get(), data);
            const uint64_t count = bytes.size() / g.unit_bytes;
            if (begin > g.units || count > g.units - begin)
              throw pyb::index_error(std::string(isa::space_name(s)) + " [" +
                                     std::to_string(begin) + ", +" + std::to_string(count) +
                                     ") outside its " + std::to_string(g.units) + " " +
                                     isa::unit_noun(s) + "s on machine " + mach.get().name);
            isa::segments(*img.image, s)
                .push_back(isa::MemorySegment{begin * g.unit_bytes, std::move(bytes)});
            return img;
          },
          pyb::arg("space"), pyb::arg("begin"), pyb::arg("data"), pyb::arg("machine") = pyb::none(),
          pyb::arg("spec") = pyb::none(),
          "adds `data` (the space's array type, as Engine.read returns it) at unit `begin`; "
          "returns the image")
      .def_static(
          "random",
          [](uint64_t seed, const pyb::object& machine, const pyb::object& spec) {
            ImageObj img{std::make_shared<isa::MemoryImage>()};
            isa::add_random_image(seed, to_machine(machine, to_spec(spec)).get(), *img.image);
            return img;
          },
          pyb::arg("seed"), pyb::arg("machine") = pyb::none(), pyb::arg("spec") = pyb::none(),
          "seeded random contents for every space (the CLI's --random-image SEED)")
      .def_static(
          "from_file",
          [](const std::string& path, const pyb::object& machine, const pyb::object& spec) {
            ImageObj img{std::make_shared<isa::MemoryImage>()};
            try {
              isa::read_image_file(path, to_machine(machine, to_spec(spec)).get(), *img.image);
            } catch (const UsageError& e) {
              throw UsageError(std::string("--image ") + e.what());  // the CLI's text
            }
            return img;
          },
          pyb::arg("path"), pyb::arg("machine") = pyb::none(), pyb::arg("spec") = pyb::none(),
          "an image file or conformance case file (the CLI's --image FILE.yaml)")
      .def(
          "add_binary",
          [](ImageObj& img, const std::string& arg, const pyb::object& machine,
             const pyb::object& spec) {
            isa::read_binary_image("--image-bin", isa::parse_binary_image_arg("--image-bin", arg),
                                   to_machine(machine, to_spec(spec)).get(), *img.image);
            return img;
          },
          pyb::arg("arg"), pyb::arg("machine") = pyb::none(), pyb::arg("spec") = pyb::none(),
          "adds a raw file: 'SPACE=FILE[@OFFSET]' (the CLI's --image-bin)")
      .def(
          "segments",
          [](const ImageObj& img, const std::string& space) {
            pyb::list l;
            for (const isa::MemorySegment& seg : isa::segments(*img.image, to_space(space)))
              l.append(pyb::make_tuple(
                  seg.base, pyb::array_t<uint8_t>(static_cast<pyb::ssize_t>(seg.bytes.size()),
                                                  seg.bytes.data())));
            return l;
          },
          pyb::arg("space"), "[(byte offset, uint8 array)] of `space`, in order")
      .def("__repr__", [](const ImageObj& img) {
        size_t n = 0, bytes = 0;
        for (isa::Space s : isa::kAllSpaces)
          for (const auto& seg : isa::segments(*img.image, s)) {
            ++n;
            bytes += seg.bytes.size();
          }
        return "<moesim.Image " + std::to_string(n) + " segments, " + std::to_string(bytes) +
               " bytes>";
      });

  m.def(
      "bf16_to_float32",
      [](const pyb::object& a) {
        return map_array<uint16_t, float>(a, "bf16_to_float32", num::bf16_to_f32);
      },
      pyb::arg("bits"), "BF16 bit patterns (uint16) as float32 (exact)");
  m.def(
      "float32_to_bf16",
      [](const pyb::object& a) {
        return map_array<float, uint16_t>(a, "float32_to_bf16", num::f32_to_bf16);
      },
      pyb::arg("values"), "float32 to BF16 bits, round to nearest even (NaN: 0x7FC0)");
  m.def(
      "e4m3_to_float32",
      [](const pyb::object& a) {
        return map_array<uint8_t, float>(a, "e4m3_to_float32", num::e4m3_to_f32);
      },
      pyb::arg("codes"), "OCP E4M3 codes (uint8) as float32");
  m.def(
      "e8m0_to_float32",
      [](const pyb::object& a) {
        return map_array<uint8_t, float>(a, "e8m0_to_float32", num::e8m0_to_f32);
      },
      pyb::arg("scales"), "E8M0 scales (uint8) as float32 2^(s-127) (0xFF: NaN)");
  m.def(
      "mx_to_float32",
      [](const pyb::object& codes, const pyb::object& scales) {
        const auto c = map_array<uint8_t, float>(codes, "mx_to_float32 codes", num::e4m3_to_f32);
        const auto s = map_array<uint8_t, float>(scales, "mx_to_float32 scales", num::e8m0_to_f32);
        if (c.ndim() != 2 || s.ndim() != 2 || c.shape(0) != s.shape(0) || s.shape(1) == 0 ||
            c.shape(1) % s.shape(1) != 0)
          throw pyb::value_error(
              "mx_to_float32: expected codes (rows, MLEN) and scales (rows, MLEN / MX_BLOCK), as "
              "Engine.read('mram') returns them");
        const pyb::ssize_t block = c.shape(1) / s.shape(1);
        pyb::array_t<float> out({c.shape(0), c.shape(1)});
        for (pyb::ssize_t r = 0; r < c.shape(0); ++r)
          for (pyb::ssize_t j = 0; j < c.shape(1); ++j)
            *out.mutable_data(r, j) = num::mul(*c.data(r, j), *s.data(r, j / block));
        return out;
      },
      pyb::arg("codes"), pyb::arg("scales"),
      "MRAM rows as float32: each E4M3 code times its block's E8M0 scale (FP32, RNE)");
}

}  // namespace moesim::py
