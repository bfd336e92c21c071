#!/usr/bin/env bash
# Renders docs/img/stage_timeline.png: a short co-simulation's stage timeline VCD opened in
# GTKWave with the .gtkw save file written beside it, on a virtual X server (xvfb-run), captured
# with xwd and converted with ImageMagick. Needs a built moesim and the Debian packages gtkwave,
# xvfb, x11-apps and imagemagick (missing ones are installed with apt-get, via sudo when not root).
# Environment:
#   BUILD_DIR  build directory holding bin/moesim (default: <repo>/build)
#   OUT        output PNG (default: <repo>/docs/img/stage_timeline.png)
#   WINDOW     cycles shown, from cycle 0 (default: 12000 = setup, router, first experts)
#   SETTLE     seconds GTKWave gets to load and draw before the capture (default: 5)
# Extra arguments are passed to `moesim cosim`.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-${ROOT}/build}"
OUT="${OUT:-${ROOT}/docs/img/stage_timeline.png}"
MOESIM="${BUILD_DIR}/bin/moesim"
WIDTH=1600
HEIGHT=1000

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
"${MOESIM}" cosim --tokens 4 --hidden 128 --intermediate 128 --vcd "${work}/t.vcd" "$@" \
  >"${work}/cosim.log"
end="$(grep -E '^#[0-9]+$' "${work}/t.vcd" | tail -1 | tr -d '#')"
window="${WINDOW:-12000}"
[ "${window}" -gt "${end}" ] && window="${end}"

# GTKWave loads t.vcd with t.gtkw and runs zoom.tcl (show cycles [0, window)); once it has
# drawn, the screen is captured and that gtkwave process is stopped.
echo "gtkwave::setZoomRangeTimes 0 ${window}" >"${work}/zoom.tcl"
cat >"${work}/capture.sh" <<SH
gtkwave -S "${work}/zoom.tcl" "${work}/t.vcd" "${work}/t.gtkw" >"${work}/gtkwave.log" 2>&1 &
pid=\$!
sleep "${SETTLE:-5}"
xwd -root -silent -out "${work}/screen.xwd"
kill "\${pid}"
wait "\${pid}" || true
SH
xvfb-run -a -s "-screen 0 ${WIDTH}x${HEIGHT}x24" bash "${work}/capture.sh"
mkdir -p "$(dirname "${OUT}")"
convert "xwd:${work}/screen.xwd" "png:${OUT}"
echo "screenshot: ${OUT} (cycles 0..${window} of ${end})"
