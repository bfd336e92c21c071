// The moesim Python module (docs/python.md): the exception classes and how C++ errors become
// them, then the bindings of bind_spec.cpp, bind_engine.cpp and bind_run.cpp.
#include <pybind11/eval.h>
#include <pybind11/pybind11.h>

#include <cstdlib>
#include <exception>
#include <string>

#include "common.hpp"
#include "moesim/isa/assembler.hpp"
#include "moesim/isa/checkpoint.hpp"
#include "moesim/isa/usage_error.hpp"
#include "moesim/workload/presets.hpp"

// libsystemc.so defines main() and calls sc_main(), which it leaves undefined for the program to
// give. Python loads the module with RTLD_NOW, so the symbol must exist; it is never called (the
// golden model elaborates without sc_elab_and_sim, as it does under the CLI once sc_main runs).
extern "C" __attribute__((visibility("default"))) int sc_main(int, char**) { return 2; }

namespace moesim::py {

namespace {

Errors* g_errors = nullptr;  // created at import, never freed (they outlive the interpreter's use)

const char* const kErrorClasses = R"PY(
class Error(Exception):
    """Base class of moesim's own errors."""


class UsageError(Error, ValueError):
    """Bad input: a program, a file, a size, a name. The message is the text the moesim CLI
    prints after 'moesim: error: ' for the same input (it names the CLI's flag where the input
    came from one: a keyword of the same name here)."""


class AsmError(UsageError):
    """An assembly error: str() is 'file:line:col: message', as the CLI prints it."""

    def __init__(self, message, file=None, line=None, col=None):
        super().__init__(message)
        self.file = file
        self.line = line
        self.col = col


class SpecError(UsageError):
    """isa.yaml, machine.yaml or stages.yaml is malformed (the message names file and key)."""


class CheckpointError(Error):
    """A checkpoint that cannot be used: it names what is wrong or differs."""


class GoldenError(Error, RuntimeError):
    """No golden engine can be had: SystemC elaborates one design per process, so the process
    has one golden model, for one machine preset, held by one user at a time."""


class ClosedError(Error, ValueError):
    """An operation on an engine (or lockstep run) after close()."""
)PY";

}  // namespace

const Errors& errors() { return *g_errors; }

SpecPtr builtin_spec() {
  // isa::Spec::builtin() is a static of the library; the shared pointer never deletes it.
  static const SpecPtr spec(&isa::Spec::builtin(), [](const isa::Spec*) {});
  return spec;
}

pyb::object json_to_python(const std::string& dumped) {
  return pyb::module_::import("json").attr("loads")(dumped);
}

namespace {

void raise(const pyb::object& cls, const std::string& message) {
  PyErr_SetString(cls.ptr(), message.c_str());
}

}  // namespace

}  // namespace moesim::py

PYBIND11_MODULE(moesim, m) {
  namespace py = moesim::py;
  namespace pyb = pybind11;
  m.doc() =
      "moesim: the golden model (SystemC), the RTL (Verilator) and their co-simulation, from "
      "Python. Every call goes to the C++ libraries the moesim CLI is made of (docs/python.md).";
  // The banner of libsystemc.so is silenced by the golden library's static initialiser; info
  // reports by the GoldenModel constructor.
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);

  pyb::dict ns = m.attr("__dict__");
  pyb::exec(py::kErrorClasses, ns);
  py::g_errors = new py::Errors{
      m.attr("Error"),           m.attr("UsageError"),  m.attr("AsmError"),   m.attr("SpecError"),
      m.attr("CheckpointError"), m.attr("GoldenError"), m.attr("ClosedError")};
  pyb::register_exception_translator([](std::exception_ptr p) {
    const py::Errors& e = py::errors();
    try {
      if (p) std::rethrow_exception(p);
    } catch (const moesim::isa::AsmError& x) {
      pyb::object exc = e.asm_error(x.what(), x.file, x.line, x.col);
      PyErr_SetObject(e.asm_error.ptr(), exc.ptr());
    } catch (const moesim::workload::ModelError& x) {
      // The CLI names the flag a model came from (main.cpp): "--model X: not a model preset".
      py::raise(e.usage, std::string("--model ") + x.what());
    } catch (const moesim::UsageError& x) {
      py::raise(e.usage, x.what());
    } catch (const moesim::isa::SpecError& x) {
      py::raise(e.spec, x.what());
    } catch (const moesim::isa::CheckpointError& x) {
      py::raise(e.checkpoint, x.what());
    } catch (const py::GoldenUnavailable& x) {
      py::raise(e.golden, x.what());
    } catch (const py::Closed& x) {
      py::raise(e.closed, x.what());
    }
  });

  py::bind_spec(m);
  py::bind_engine(m);
  py::bind_run(m);
}
