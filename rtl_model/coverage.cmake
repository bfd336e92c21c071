# rtl_model/coverage.cmake: the RTL code-coverage build (docs/coverage.md), included by
# rtl_model/CMakeLists.txt before the models are Verilated.
#
# -DMOESIM_RTL_COVERAGE=ON, in a build folder of its own, Verilates the model of the preset
# MOESIM_RTL_COVER_PRESET (default: `default`) with line (and branch), toggle and user
# coverage, adding the cover properties of rtl_model/sva/cover (bound like the assertions) and
# the per-lane probes of the wide buses that toggle coverage skips. The wrapper then counts the
# model's coverage points and `--rtl-coverage DIR` writes them (rtl::write_coverage). Every
# other preset's model, and every model of a build without the option, stays uninstrumented
# and as fast as before; the cover files are not even compiled into them.

option(MOESIM_RTL_COVERAGE
       "Verilate one preset's RTL model with line, toggle and cover-property coverage"
       OFF)
set(MOESIM_RTL_COVER_PRESET "default" CACHE STRING
    "machine.yaml preset Verilated with coverage when MOESIM_RTL_COVERAGE is ON")
# Toggle coverage skips a signal whose bits (width x unpacked elements) exceed this; the 64-lane
# buses are covered lane by lane by rtl_model/sva/cover/moe_lanes_cov.sv instead.
set(MOESIM_RTL_COVER_MAX_WIDTH 256 CACHE STRING
    "Verilator --coverage-max-width of the coverage build")

# The checkers, probes and binds; the configuration of what is left out of coverage, which
# Verilator must read before the design files it names (rtl_model/CMakeLists.txt).
file(GLOB MOESIM_RTL_COVER_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/sva/cover/*.sv)
set(MOESIM_RTL_COVER_VLT ${CMAKE_CURRENT_SOURCE_DIR}/sva/cover/moe_cover.vlt)
set(MOESIM_RTL_COVER_ARGS
    --coverage-line --coverage-toggle --coverage-user
    --coverage-max-width ${MOESIM_RTL_COVER_MAX_WIDTH}
    -I${CMAKE_CURRENT_SOURCE_DIR}/sva/cover)

if(MOESIM_RTL_COVERAGE AND NOT MOESIM_RTL_COVER_PRESET IN_LIST MOESIM_RTL_PRESETS)
  message(FATAL_ERROR "rtl_model: MOESIM_RTL_COVER_PRESET '${MOESIM_RTL_COVER_PRESET}' is not "
                      "in MOESIM_RTL_PRESETS (${MOESIM_RTL_PRESETS})")
endif()

# The instrumented model is about five times the C++ of a plain one (toggle coverage specialises
# the code of every arithmetic leaf instance): compiled at -O2 / -O3 it takes over an hour on two
# cores. MOESIM_RTL_COVER_OPT (default -O0) is the optimisation of its C++ instead; the model
# then runs slower, which the coverage runs (conformance, a few co-simulations) can afford.
set(MOESIM_RTL_COVER_OPT "-O0" CACHE STRING
    "C++ optimisation of the coverage build's Verilated model")

# moesim_rtl_cover_args(PRESET OUT_VLT OUT_SOURCES OUT_ARGS OUT_OPT): the Verilator
# configuration file, extra sources, Verilator arguments and C++ optimisation flag of PRESET's
# model (none unless it is the instrumented one).
function(moesim_rtl_cover_args preset out_vlt out_sources out_args out_opt)
  if(MOESIM_RTL_COVERAGE AND preset STREQUAL MOESIM_RTL_COVER_PRESET)
    set(${out_vlt} ${MOESIM_RTL_COVER_VLT} PARENT_SCOPE)
    set(${out_sources} ${MOESIM_RTL_COVER_SOURCES} PARENT_SCOPE)
    set(${out_args} ${MOESIM_RTL_COVER_ARGS} PARENT_SCOPE)
    set(${out_opt} ${MOESIM_RTL_COVER_OPT} PARENT_SCOPE)
  else()
    set(${out_vlt} "" PARENT_SCOPE)
    set(${out_sources} "" PARENT_SCOPE)
    set(${out_args} "" PARENT_SCOPE)
    set(${out_opt} "" PARENT_SCOPE)
  endif()
endfunction()
