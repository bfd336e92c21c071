#!/usr/bin/env bash
# Builds moesim and runs the default test suite with ctest. Installs missing Debian packages.
# Extra arguments are passed to ctest (e.g. -R cosim). Long campaigns carry the ctest label
# `long`, the RTL mutation campaign the label `mutation` (docs/mutation.md); both are left out of
# this default suite. The `slurm` tests start (and stop) a one-node
# Slurm cluster on localhost (scripts/slurm_cluster.sh).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

moesim_install_packages
moesim_install_slurm  # the campaign tests' one-node Slurm cluster (label slurm)
moesim_build

export BOOST_TEST_COLOR_OUTPUT=no
ctest --test-dir "${BUILD_DIR}" --output-on-failure -j "${JOBS}" -LE 'long|mutation' "$@"
