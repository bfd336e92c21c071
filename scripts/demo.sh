#!/usr/bin/env bash
# The main job: co-simulate the RTL against the golden model on a routed MoE layer with
# GPT-OSS-20B's router (32 experts, top-4), hidden and expert widths scaled down to 128.
# Installs missing Debian packages, builds the `moesim` executable and the Verilated models it
# links (not the test binaries: on a fresh machine a few minutes, said when done), runs, prints
# the stage table.
# Outputs: build/demo/r.json (report), build/demo/t.vcd (+ t.stages.filter, t.gtkw) for GTKWave.
# Extra arguments are passed to `moesim cosim`.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

moesim_install_packages
moesim_build moesim

out="${BUILD_DIR}/demo"
mkdir -p "${out}"
exec "${BUILD_DIR}/bin/moesim" cosim --model gpt-oss-20b --tokens 4 --hidden 128 --intermediate 128 \
  --report "${out}/r.json" --vcd "${out}/t.vcd" "$@"
