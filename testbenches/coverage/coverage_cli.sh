#!/usr/bin/env bash
# ctest coverage.cli: `moesim coverage` exit codes on coverage files written here (0 pass, 1 a
# kind below its threshold or a stale waiver, 2 bad input naming the file and line), and
# `--rtl-coverage` (exit 2 on a build without RTL coverage; on the coverage build, a run writes one
# .dat file that `moesim coverage` reads).
# Usage: coverage_cli.sh MOESIM WORK_DIR COVERAGE_BUILD(0|1)
set -u
MOESIM="$1"
WORK="$2"
COVERAGE_BUILD="$3"
rm -rf "${WORK}" && mkdir -p "${WORK}/ok" "${WORK}/bad"
cd "${WORK}" || exit 2
fails=0

# expect CODE PATTERN CMD...: CMD exits CODE and its stdout + stderr match the grep -E PATTERN.
expect() {
  local code="$1" pattern="$2"
  shift 2
  local out rc
  out=$("$@" 2>&1)
  rc=$?
  if [ "${rc}" != "${code}" ] || ! grep -Eq -- "${pattern}" <<<"${out}"; then
    echo "FAIL: $* exited ${rc} (want ${code}), output must match '${pattern}':"
    echo "${out}" | head -20
    fails=$((fails + 1))
  else
    echo "ok: $*"
  fi
}

point() {  # PAGE FILE LINE COMMENT HIER COUNT
  printf "C '\001f\002%s\001l\002%s\001n\0025\001page\002%s\001o\002%s\001h\002%s' %s\n" \
    "$2" "$3" "$1" "$4" "$5" "$6"
}
{
  echo "# SystemC::Coverage-3"
  point v_line/m /src/rtl_model/rtl/m.sv 3 block TOP.moe_top 2
  point v_branch/m /src/rtl_model/rtl/m.sv 4 if TOP.moe_top 1
  point v_branch/m /src/rtl_model/rtl/m.sv 4 else TOP.moe_top 0
  point v_toggle/m /src/rtl_model/rtl/m.sv 5 'x[0]' TOP.moe_top 1
  point v_user/c /src/rtl_model/sva/cover/c.sv 6 A_C TOP.moe_top.u_cov.A_C 1
} >ok/run1.dat
{
  echo "# SystemC::Coverage-3"
  point v_branch/m /src/rtl_model/rtl/m.sv 4 else TOP.moe_top 0
} >ok/run2.dat

expect 1 'branch .* 50\.00% .*BELOW' "${MOESIM}" coverage ok
expect 1 'rtl_model/rtl/m.sv:4 else @moe_top' "${MOESIM}" coverage ok
expect 0 'COVERAGE: PASS' "${MOESIM}" coverage ok --min-branch 50
expect 0 'COVERAGE: PASS' "${MOESIM}" coverage ok/run1.dat ok/run2.dat --min-branch 50 \
  --json r.json --html r.html --merged m.dat
[ -s r.json ] && [ -s r.html ] && [ -s m.dat ] || { echo "FAIL: outputs missing"; fails=$((fails + 1)); }
expect 0 'COVERAGE: PASS' "${MOESIM}" coverage m.dat --min-branch 50
printf -- '- {point: "rtl_model/rtl/m.sv:4 else @moe_top", reason: "test"}\n' >w.yaml
expect 0 'COVERAGE: PASS' "${MOESIM}" coverage ok --waivers w.yaml
printf -- '- {point: "moe_top.u_cov.A_C", reason: "covered: stale"}\n' >stale.yaml
expect 1 'stale waiver \(.*stale.yaml:1\)' "${MOESIM}" coverage ok --min-branch 50 --waivers stale.yaml
printf -- '- {point: "x"}\n' >badw.yaml
expect 2 "moesim: error: .*badw.yaml:1: a waiver needs a non-empty 'reason'" \
  "${MOESIM}" coverage ok --waivers badw.yaml
{ echo "# SystemC::Coverage-3"; echo "C 'broken 1"; } >bad/x.dat
expect 2 'moesim: error: .*bad/x.dat:2: expected C' "${MOESIM}" coverage bad
expect 2 'moesim: error: .*nothing: no such file or folder' "${MOESIM}" coverage nothing
mkdir -p empty
expect 2 'moesim: error: .*empty: holds no .dat' "${MOESIM}" coverage empty
expect 2 'moesim: error: --min-toggle' "${MOESIM}" coverage ok --min-toggle 101

printf 'S_ADDI_INT gp1, gp0, 5\n' >prog.asm
if [ "${COVERAGE_BUILD}" = "1" ] || [ "${COVERAGE_BUILD}" = "ON" ] || [ "${COVERAGE_BUILD}" = "TRUE" ]; then
  expect 0 'RTL coverage written to rc/default-' \
    "${MOESIM}" run --engine rtl --program prog.asm --quiet --rtl-coverage rc
  expect 1 'COVERAGE: FAIL' "${MOESIM}" coverage rc --quiet
else
  for cmd in "run --engine rtl --program prog.asm" "cosim --program prog.asm" \
             "conformance --engine rtl --filter ^S_ADDI_INT/" "random --cosim --count 1"; do
    # shellcheck disable=SC2086
    expect 2 'moesim: error: --rtl-coverage: this moesim was built without RTL coverage' \
      "${MOESIM}" ${cmd} --rtl-coverage rc
  done
fi

echo "${fails} failed"
[ "${fails}" -eq 0 ]
