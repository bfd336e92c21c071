#!/usr/bin/env bash
# ctest waveforms.screenshots: renders the GTKWave screenshots with scripts/screenshot.sh (the
# save files users get, on Xvfb) into OUT_DIR and checks each PNG is a drawn GTKWave window:
# the save file's size, many colours (signals drawn, not an empty or error window), and almost
# no pure-red pixels (GTKWave fills x values red: an `x` work tag would paint rows of red).
# Usage: check_screenshots.sh BUILD_DIR OUT_DIR
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export BUILD_DIR="$1" OUT_DIR="$2"
rm -rf "${OUT_DIR}"
bash "${here}/../../scripts/screenshot.sh"
fail=0
for png in stage_timeline rtl_signals divergence; do
  f="${OUT_DIR}/${png}.png"
  if [ ! -s "${f}" ]; then
    echo "FAIL ${png}: not written"
    fail=1
    continue
  fi
  size="$(identify -format '%wx%h' "${f}")"
  colours="$(identify -format '%k' "${f}")"
  # Share of pixels that are (nearly) pure red, in per mille.
  red="$(convert "${f}" -fx 'r>0.9 && g<0.2 && b<0.2 ? 1 : 0' -format '%[fx:int(1000*mean)]' info:)"
  echo "${png}: ${size}, ${colours} colours, red ${red} per mille"
  [ "${size}" = "1600x1000" ] || { echo "FAIL ${png}: size ${size}, the save file sets 1600x1000"; fail=1; }
  [ "${colours}" -ge 16 ] || { echo "FAIL ${png}: ${colours} colours: nothing drawn"; fail=1; }
  [ "${red}" -lt 5 ] || { echo "FAIL ${png}: ${red} per mille red pixels (x values?)"; fail=1; }
done
exit "${fail}"
