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
  libboost-test-dev libyaml-cpp-dev libcli11-dev nlohmann-json3-dev libmpfr-dev
  gtkwave python3
  xvfb x11-apps imagemagick
)

moesim_install_packages() {
  local missing=()
  local p
  for p in "${MOESIM_PACKAGES[@]}"; do
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

moesim_build() {
  cmake -S "${MOESIM_ROOT}" -B "${BUILD_DIR}" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "${BUILD_DIR}" -j "${JOBS}"
}
