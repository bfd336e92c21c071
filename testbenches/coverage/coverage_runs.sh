#!/usr/bin/env bash
# ctest coverage.runs (label coverage; a build configured with -DMOESIM_RTL_COVERAGE=ON):
# 1. No cover property is hit by every program: two programs that share nothing (one scalar
#    instruction that retires and halts; a C_LOOP_END outside any loop, which traps at issue)
#    each run alone under --rtl-coverage; a property hit by both would be hit by any run (a
#    defect: it cannot fail). Every cover property must be unhit in at least one of them.
# 2. The closure set on the RTL under coverage (the conformance suite, the README demo's layer, a
#    layer with a gated shared expert: every stage code, RANDOM_COUNT random programs, default
#    40), merged with `moesim coverage` and the committed waivers
#    (testbenches/coverage/waivers.yaml) at the floors given below: a change that loses coverage,
#    or makes a waiver stale, fails here.
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

# The closure set: the conformance suite, the generated layers (the README demo's, with and
# without HBM jitter; a gated shared expert) and a batch of random programs, each under
# coverage, merged.
"${MOESIM}" conformance --engine rtl --quiet --rtl-coverage cov_conf >conformance.log 2>&1 || {
  echo "FAIL: conformance under coverage"; tail -20 conformance.log; fails=$((fails + 1)); }
"${MOESIM}" cosim --model gpt-oss-20b --tokens 4 --hidden 128 --intermediate 128 --quiet \
  --rtl-coverage cov_layers >demo.log 2>&1 || {
  echo "FAIL: README demo under coverage"; tail -20 demo.log; fails=$((fails + 1)); }
# The same layer under HBM jitter, with a seed of all ones: every bit of the seed port and
# register toggles, and every transfer waits in the jitter stage.
"${MOESIM}" cosim --model gpt-oss-20b --tokens 4 --hidden 128 --intermediate 128 --quiet \
  --hbm-jitter 4294967295 --rtl-coverage cov_layers >jitter.log 2>&1 || {
  echo "FAIL: README demo with HBM jitter under coverage"; tail -20 jitter.log; fails=$((fails + 1)); }
"${MOESIM}" cosim --model qwen1.5-moe-a2.7b --shared --tokens 2 --hidden 64 --intermediate 64 \
  --quiet --rtl-coverage cov_layers >shared.log 2>&1 || {
  echo "FAIL: shared-expert layer under coverage"; tail -20 shared.log; fails=$((fails + 1)); }
"${MOESIM}" random --cosim --seed 1 --count "${RANDOM_COUNT:-40}" --quiet \
  --rtl-coverage cov_random >random.log 2>&1 || {
  echo "FAIL: random programs under coverage"; tail -20 random.log; fails=$((fails + 1)); }
"${MOESIM}" coverage cov_conf cov_layers cov_random --waivers "${HERE}/waivers.yaml" --quiet \
  --json closure.json --min-line 100 --min-branch 100 --min-toggle 82 --min-cover 100 || {
  echo "FAIL: coverage of the closure set below its floors (or a stale waiver)"
  fails=$((fails + 1)); }

echo "${fails} failed"
[ "${fails}" -eq 0 ]
