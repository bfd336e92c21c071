#!/usr/bin/env bash
# ctest coverage.names: every trap cause and every stage code of the generated moesim_isa_pkg
# (isa.yaml, stages.yaml) has its cover property in rtl_model/sva/cover/moe_top_cov.sv, so a
# cause or stage added to the spec cannot go unmeasured (a renamed one fails to compile there).
# Usage: check_cover_names.sh GENERATED_PKG COVER_SV
set -u
PKG="$1"
COV="$2"
missing=0
for name in $(grep -oE "^ +(TRAP|STAGE)_[A-Z0-9_]+ = [0-9]+'d" "${PKG}" | sed -E 's/^ +//; s/ = .*//' | sort -u); do
  [ "${name}" = TRAP_NONE ] && continue
  if ! grep -qE "== ${name}\)" "${COV}"; then
    echo "missing: no cover property in ${COV##*/} names ${name}"
    missing=$((missing + 1))
  fi
done
echo "${missing} missing"
[ "${missing}" -eq 0 ]
