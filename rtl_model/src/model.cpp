// moesim::rtl::make_rtl_model: picks the Verilated model built for the machine preset it is
// given (backend.hpp). Also the DPI-C imports of moe_hbm.sv, shared by every
// Verilated model: they read and write the HBM backing store of the model being clocked.
#include "moesim/rtl/model.hpp"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>

#include "backend.hpp"

// DPI-C imports of moe_hbm.sv (declared in each Vmoe_top_<preset>__Dpi.h with these signatures).
extern "C" unsigned char moe_hbm_read(unsigned long long addr);
extern "C" void moe_hbm_write(unsigned long long addr, unsigned char data);

namespace moesim::rtl {
namespace {

HbmStore& hbm_of(const char* fn) {
  HbmStore* h = active_hbm();
  if (h == nullptr)
    throw std::logic_error(std::string(fn) + " called outside the RTL engine's step()");
  return *h;
}

std::string preset_list() {
  std::string names;
  for (const Variant& v : variants()) names += (names.empty() ? "" : ", ") + std::string(v.preset);
  return names;
}

}  // namespace

HbmStore*& active_hbm() {
  thread_local HbmStore* store = nullptr;
  return store;
}

std::unique_ptr<isa::Engine> make_rtl_model(const isa::Spec& spec, const isa::MachinePreset& preset,
                                            const RtlOptions& opts) {
  // The model Verilated for this preset name (its constructor reports a parameter that differs),
  // else one whose Verilator parameters the preset has.
  for (const Variant& v : variants())
    if (preset.name == v.preset) return v.make(spec, preset, opts);
  for (const Variant& v : variants())
    if (v.runs(spec, preset)) return v.make(spec, preset, opts);
  throw std::invalid_argument("RtlModel: no Verilated model for machine preset '" + preset.name +
                              "' (built: " + preset_list() +
                              "; configure with -DMOESIM_RTL_PRESETS=...)");
}

std::vector<std::string> built_presets() {
  std::vector<std::string> out;
  for (const Variant& v : variants()) out.emplace_back(v.preset);
  return out;
}

std::vector<std::string> runnable_presets(const isa::Spec& spec) {
  std::vector<std::string> out;
  for (const auto& [name, preset] : spec.presets()) {
    bool runs = false;
    for (const Variant& v : variants()) runs = runs || v.runs(spec, preset);
    if (runs) out.push_back(name);
  }
  return out;
}

std::vector<std::string> coverage_presets() {
  std::vector<std::string> out;
  for (const Variant& v : variants())
    if (v.coverage() != nullptr) out.emplace_back(v.preset);
  return out;
}

std::vector<std::string> write_coverage(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec || !std::filesystem::is_directory(dir))
    throw std::runtime_error("cannot create the coverage directory " + dir +
                             (ec ? ": " + ec.message() : std::string()));
  static std::atomic<uint64_t> calls{0};
  const uint64_t n = calls++;
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count();
  std::vector<std::string> written;
  for (const Variant& v : variants()) {
    CoverageSink* sink = v.coverage();
    if (sink == nullptr || sink->models() == 0) continue;
    const std::string path =
        (std::filesystem::path(dir) / (std::string(v.preset) + "-" + std::to_string(::getpid()) +
                                       "-" + std::to_string(ns) + "-" + std::to_string(n) + ".dat"))
            .string();
    sink->write(path);
    written.push_back(path);
  }
  return written;
}

}  // namespace moesim::rtl

unsigned char moe_hbm_read(unsigned long long addr) {
  auto& h = moesim::rtl::hbm_of("moe_hbm_read");
  if (addr >= h.bytes.size()) throw std::out_of_range("moe_hbm_read: address beyond HBM_BYTES");
  ++h.bytes_read;
  if (h.record != nullptr) ++h.record->hbm_read;
  return h.bytes[addr];
}

void moe_hbm_write(unsigned long long addr, unsigned char data) {
  auto& h = moesim::rtl::hbm_of("moe_hbm_write");
  if (addr >= h.bytes.size()) throw std::out_of_range("moe_hbm_write: address beyond HBM_BYTES");
  h.bytes[addr] = data;
  ++h.bytes_written;
  if (h.record != nullptr) {
    ++h.record->hbm_written;
    h.record->mems.push_back(moesim::isa::MemWrite{moesim::isa::Space::Hbm, addr, addr + 1, 0});
  }
}
