#!/usr/bin/env bash
# ctest coverage.runs (label coverage; a build configured with -DMOESIM_RTL_COVERAGE=ON):
# 1. No cover property is hit by every program: two programs that share nothing (one scalar
#    instruction that retires and halts; a C_LOOP_END outside any loop, which traps at issue)
#    each run alone under --rtl-coverage; a property hit by both would be hit by any run (a
#    defect: it cannot fail). Every cover property must be unhit in at least one of them.
# 2. The conformance suite on the RTL under coverage, merged with `moesim coverage` and the
#    committed waivers (testbenches/coverage/waivers.yaml) at the floors given below: a change
#    that loses coverage, or makes a waiver stale, fails here.
# Usage: coverage_runs.sh MOESIM WORK_DIR
set -u
MOESIM="$1"
WORK="$2"
HERE="$(cd "$(dirname "$0")" && pwd)"
rm -rf "${WORK}" && mkdir -p "${WORK}" && cd "${WORK}" || exit 2
fails=0

printf 'S_ADDI_INT gp1, gp0, 5\n' >retire.asm
printf 'C_LOOP_END gp1\n' >trap.asm
for p in retire trap; do
  "${MOESIM}" run --engine rtl --program "${p}.asm" --quiet --rtl-coverage "cov_${p}" >"${p}.log" 2>&1
  rc=$?
  want=0
  [ "${p}" = trap ] && want=1
  if [ "${rc}" != "${want}" ]; then
    echo "FAIL: run of ${p}.asm exited ${rc} (want ${want})"
    cat "${p}.log"
    fails=$((fails + 1))
  fi
  "${MOESIM}" coverage "cov_${p}" --json "${p}.json" --quiet >/dev/null
done
/usr/bin/python3 - <<'PY' || fails=$((fails + 1))
import json, sys
def hit(p):
    j = json.load(open(p + ".json"))
    unhit = {u["name"] for u in j["uncovered"] if u["kind"] == "cover"}
    return j["kinds"]["cover"]["points"], unhit
n1, u1 = hit("retire")
n2, u2 = hit("trap")
# A property hit by both runs is missing from both unhit sets.
names = u1 | u2
always = n1 - len(names)
print(f"cover properties: {n1}; unhit by the scalar run: {len(u1)}; by the trapping run: {len(u2)}")
if always != 0:
    print(f"FAIL: {always} cover properties are hit by both runs (cannot fail to be hit)")
    sys.exit(1)
print("ok: every cover property is unhit in one of the two runs")
PY

"${MOESIM}" conformance --engine rtl --quiet --rtl-coverage cov_conf >conformance.log 2>&1 || {
  echo "FAIL: conformance under coverage"; tail -20 conformance.log; fails=$((fails + 1)); }
"${MOESIM}" coverage cov_conf --waivers "${HERE}/waivers.yaml" --quiet \
  --min-line 90 --min-branch 80 --min-toggle 50 --min-cover 50 || {
  echo "FAIL: coverage of the conformance suite below its floors (or a stale waiver)"
  fails=$((fails + 1)); }

echo "${fails} failed"
[ "${fails}" -eq 0 ]
