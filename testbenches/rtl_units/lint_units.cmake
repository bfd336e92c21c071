# ctest rtl_lint_units: `verilator --lint-only -Wall` on each arithmetic leaf, the matrix unit and
# the top-k unit (rtl_model/rtl) as its own top module, the parameterised units once per machine
# preset (parameters read from the generated moesim_cfg_<preset>.vc). Fails on any warning.
# Inputs: VERILATOR, RTL_DIR, TB_DIR, GEN_DIR, PRESETS.

set(fp ${RTL_DIR}/moe_fp32_add.sv ${RTL_DIR}/moe_fp32_mul.sv ${RTL_DIR}/moe_bf16_round.sv
       ${RTL_DIR}/moe_lzc.sv)
set(failed "")

function(lint top)
  execute_process(COMMAND ${VERILATOR} --lint-only -Wall --top-module ${top} ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc EQUAL 0)
    message(STATUS "lint ok: ${top} ${ARGN}")
  else()
    message(STATUS "lint FAILED: ${top}\n${out}${err}")
    set(failed "${failed} ${top}" PARENT_SCOPE)
  endif()
endfunction()

function(param preset name out)
  file(STRINGS ${GEN_DIR}/rtl/moesim_cfg_${preset}.vc lines REGEX "^-G${name}=")
  string(REGEX REPLACE "^-G${name}=([0-9]+).*" "\\1" value "${lines}")
  set(${out} ${value} PARENT_SCOPE)
endfunction()

foreach(w 2 3 12 27 48 64)
  lint(moe_lzc -GWIDTH=${w} ${RTL_DIR}/moe_lzc.sv)
endforeach()
lint(moe_fp32_add ${RTL_DIR}/moe_fp32_add.sv ${RTL_DIR}/moe_lzc.sv)
lint(moe_fp32_mul ${RTL_DIR}/moe_fp32_mul.sv ${RTL_DIR}/moe_lzc.sv)
lint(moe_fp32_minmax ${RTL_DIR}/moe_fp32_minmax.sv)
lint(moe_bf16_round ${RTL_DIR}/moe_bf16_round.sv)
lint(moe_e4m3_to_fp32 ${RTL_DIR}/moe_e4m3_to_fp32.sv ${RTL_DIR}/moe_lzc.sv)
lint(moe_mx_dequant ${RTL_DIR}/moe_mx_dequant.sv ${RTL_DIR}/moe_e4m3_to_fp32.sv ${fp})
lint(moe_mx_quant_block ${RTL_DIR}/moe_mx_quant_block.sv)
lint(moe_mx_quant_block -GN=32 ${RTL_DIR}/moe_mx_quant_block.sv)
foreach(n 1 2 4 8 16 32)
  lint(moe_mx_dot -GN=${n} ${RTL_DIR}/moe_mx_dot.sv ${fp})
  lint(moe_mx_dot -GN=${n} -GPER_ELEM_SCALE=1'b1 ${RTL_DIR}/moe_mx_dot.sv ${fp})
endforeach()
lint(moe_bf16_rom ${RTL_DIR}/moe_bf16_rom.sv)
lint(moe_bf16_rom -GNPorts=3 ${RTL_DIR}/moe_bf16_rom.sv)
lint(moe_units_tb_top ${TB_DIR}/moe_units_tb_top.sv ${RTL_DIR}/moe_fp32_minmax.sv
     ${RTL_DIR}/moe_e4m3_to_fp32.sv ${RTL_DIR}/moe_mx_dequant.sv ${RTL_DIR}/moe_mx_quant_block.sv
     ${RTL_DIR}/moe_mx_dot.sv ${RTL_DIR}/moe_bf16_rom.sv ${fp})
foreach(preset IN LISTS PRESETS)
  foreach(p MLEN VLEN BLEN HLEN MX_BLOCK MAX_TOPK_EXPERTS)
    param(${preset} ${p} ${p})
  endforeach()
  lint(moe_matrix_unit -GMLEN=${MLEN} -GVLEN=${VLEN} -GBLEN=${BLEN} -GHLEN=${HLEN}
       -GMX_BLOCK=${MX_BLOCK} ${GEN_DIR}/rtl/moesim_isa_pkg.sv ${RTL_DIR}/moe_pkg.sv
       ${RTL_DIR}/moe_matrix_unit.sv ${RTL_DIR}/moe_clock_gate.sv ${RTL_DIR}/moe_mx_dot.sv
       ${fp})
  lint(moe_topk_unit -GVLEN=${VLEN} -GMAX_E=${MAX_TOPK_EXPERTS} ${RTL_DIR}/moe_topk_unit.sv ${fp})
  lint(moe_topk_tb_top -GVLEN=${VLEN} -GMAX_E=${MAX_TOPK_EXPERTS} ${TB_DIR}/moe_topk_tb_top.sv
       ${RTL_DIR}/moe_topk_unit.sv ${RTL_DIR}/moe_bf16_rom.sv ${fp})
endforeach()

if(failed)
  message(FATAL_ERROR "rtl_lint_units: lint failed for:${failed}")
endif()
