#!/usr/bin/env bash
# Renders the GTKWave screenshots of docs/waveforms.md from the save files moesim writes, exactly
# as a user opens them (no zoom or layout of its own), on a virtual X server (xvfb-run),
# captured with xwd and converted with ImageMagick:
#   stage_timeline.png  `moesim cosim --vcd`: the whole run, with a marker per stage
#   divergence.png      the same run with --flip-bit: the .gtkw opens on the first divergence
#   rtl_signals.png     the re-run command that run printed (--trace-rtl --trace-window): the
#                       FST with its .rtl.gtkw, on the cycles around the divergence
# Needs a built moesim and the Debian packages gtkwave, xvfb, x11-apps and imagemagick (missing
# ones are installed with apt-get, via sudo when not root; scripts/setup.sh lists them).
# Environment:
#   BUILD_DIR  build directory holding bin/moesim (default: <repo>/build)
#   OUT_DIR    where the PNGs go (default: <repo>/docs/img)
#   SETTLE     seconds between checks whether GTKWave has drawn (default: 5)
# Exit 0 when the three PNGs were written, 2 when a tool or the build is missing, 1 otherwise.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-${ROOT}/build}"
OUT_DIR="${OUT_DIR:-${ROOT}/docs/img}"
MOESIM="$(cd "${BUILD_DIR}" 2>/dev/null && pwd)/bin/moesim"
# The window size the save files set (waveforms::kGtkwWidth x kGtkwHeight).
WIDTH=1600
HEIGHT=1000
RUN=(cosim --tokens 4 --hidden 128 --intermediate 128)
FLIP=rtl:hbm:453:0

if [ ! -x "${MOESIM}" ]; then
  echo "screenshot: ${MOESIM} not found; build moesim first (scripts/setup.sh)" >&2
  exit 2
fi
missing=()
for tool in gtkwave:gtkwave xvfb-run:xvfb xwd:x11-apps convert:imagemagick; do
  command -v "${tool%%:*}" >/dev/null 2>&1 || missing+=("${tool##*:}")
done
if [ "${#missing[@]}" -ne 0 ]; then
  sudo=()
  [ "$(id -u)" -ne 0 ] && sudo=(sudo)
  echo "screenshot: installing ${missing[*]}" >&2
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi

work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT
cd "${work}"

# 1. The whole run. 2. A planted fault: exits 1 and prints the re-run command.
"${MOESIM}" "${RUN[@]}" --vcd run.vcd >run.log
status=0
"${MOESIM}" "${RUN[@]}" --flip-bit "${FLIP}" --vcd flip.vcd >flip.log || status=$?
if [ "${status}" -ne 1 ]; then
  echo "screenshot: --flip-bit ${FLIP} did not give a mismatch (exit ${status})" >&2
  exit 1
fi
rerun="$(grep -A1 '^  re-run just the failing part:' flip.log | tail -1)"
if [ -z "${rerun}" ]; then
  echo "screenshot: the mismatch printed no re-run command" >&2
  exit 1
fi
# 3. The re-run, as a user pastes it (it writes divergence.vcd, .fst and .rtl.gtkw here), with
# the moesim under test first on PATH (the command names `moesim`).
export PATH="$(dirname "${MOESIM}"):${PATH}"
eval "${rerun}" >rerun.log || true
[ -f divergence.rtl.gtkw ] || { echo "screenshot: the re-run wrote no divergence.rtl.gtkw" >&2; exit 1; }

# One GTKWave per capture, each on its own virtual screen; the screen is captured once GTKWave
# has drawn (many colours), polling every SETTLE seconds, at most 8 times.
capture() {  # capture DUMP SAVEFILE OUT.png
  mkdir -p "${OUT_DIR}"
  cat >capture.sh <<SH
gtkwave "$1" "$2" >gtkwave.log 2>&1 &
pid=\$!
for try in 1 2 3 4 5 6 7 8; do
  sleep "${SETTLE:-5}"
  xwd -root -silent -out screen.xwd
  convert xwd:screen.xwd "png:${OUT_DIR}/$3"
  [ "\$(identify -format '%k' "${OUT_DIR}/$3")" -ge 64 ] && sleep "${SETTLE:-5}" && break
done
xwd -root -silent -out screen.xwd
convert xwd:screen.xwd "png:${OUT_DIR}/$3"
kill "\${pid}"
wait "\${pid}" || true
SH
  xvfb-run -a -s "-screen 0 ${WIDTH}x${HEIGHT}x24" bash capture.sh
  echo "screenshot: ${OUT_DIR}/$3"
}
capture run.vcd run.gtkw stage_timeline.png
capture flip.vcd flip.gtkw divergence.png
capture divergence.fst divergence.rtl.gtkw rtl_signals.png
