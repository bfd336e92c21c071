#!/usr/bin/env bash
# Installs the Debian packages moesim needs, if any are missing, and configures + builds it.
# Sourced by scripts/demo.sh and scripts/test.sh. Environment:
#   BUILD_DIR  build directory (default: <repo>/build)
#   JOBS       parallel build jobs (default: number of cores)
set -euo pipefail

MOESIM_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-${MOESIM_ROOT}/build}"
JOBS="${JOBS:-$(nproc)}"

MOESIM_PACKAGES=(
  build-essential cmake pkg-config
  verilator libsystemc-dev zlib1g-dev
  libboost-test-dev libyaml-cpp-dev libcli11-dev nlohmann-json3-dev libmpfr-dev libssl-dev
  gtkwave python3 python3-yaml
  # the moesim Python module (sim/python, docs/python.md) and its pytest suite
  pybind11-dev python3-dev python3-numpy python3-pytest
  # scripts/screenshot.sh: GTKWave under Xvfb
  xvfb x11-apps imagemagick
  # scripts/sanitize.sh: the ASan + UBSan build and the libFuzzer harnesses
  clang-14 libclang-rt-14-dev
  # scripts/count_instructions.py (ctest bench.count_instructions): callgrind
  valgrind
)

moesim_install_packages() {  # [PACKAGE...] (default: MOESIM_PACKAGES)
  local missing=()
  local p want=("$@")
  [ "$#" -gt 0 ] || want=("${MOESIM_PACKAGES[@]}")
  for p in "${want[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$p")
    fi
  done
  if [ "${#missing[@]}" -eq 0 ]; then
    return 0
  fi
  echo "moesim: installing missing Debian packages: ${missing[*]}" >&2
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
      sudo=(sudo)
    else
      echo "moesim: error: packages missing (${missing[*]}) and not root; install them and retry" >&2
      exit 2
    fi
  fi
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
}

# The one-node Slurm cluster of the campaign tests (scripts/slurm_cluster.sh): Debian's slurm-wlm
# and munge, installed only on the test path.
MOESIM_SLURM_PACKAGES=(slurm-wlm munge procps)

moesim_install_slurm() {
  moesim_install_packages "${MOESIM_SLURM_PACKAGES[@]}"
}

# moesim_build [TARGET...]: configures and builds BUILD_DIR (every target, or only the given
# ones and what they need) and says how long the build took.
moesim_build() {
  local start=${SECONDS} targets=()
  for t in "$@"; do targets+=(--target "${t}"); done
  cmake -S "${MOESIM_ROOT}" -B "${BUILD_DIR}" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "${BUILD_DIR}" -j "${JOBS}" "${targets[@]}"
  echo "moesim: build of ${*:-every target} took $((SECONDS - start)) s" >&2
}
