#!/usr/bin/env bash
# Re-runs the conformance-case generators (scripts/oracle_bmm.py, scripts/conformance_mx32.py)
# into a scratch directory and diffs every file they write with the committed one, so a case
# edited by hand, or a generator changed without re-running it, fails here (ctest
# generators.conformance_cases). Exit 0 when all are equal, 1 on a difference, 2 on an error.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

python3 "$root/scripts/oracle_bmm.py" "$tmp" || exit 2
python3 "$root/scripts/conformance_mx32.py" "$tmp/testbenches/conformance" || exit 2

written=0 differ=0
while IFS= read -r f; do
  rel="${f#"$tmp"/}"
  written=$((written + 1))
  if [ ! -f "$root/$rel" ]; then
    echo "check_generated_cases: $rel is written by a generator but not committed"
    differ=$((differ + 1))
  elif ! diff -u "$root/$rel" "$f"; then
    echo "check_generated_cases: $rel differs from what its generator writes (diff above)"
    differ=$((differ + 1))
  fi
done < <(find "$tmp" -type f | sort)
if [ "$written" -eq 0 ]; then
  echo "check_generated_cases: the generators wrote nothing" >&2
  exit 2
fi
echo "check_generated_cases: $written generated files, $differ differ"
[ "$differ" -eq 0 ]
