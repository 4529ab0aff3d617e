#!/usr/bin/env bash
# Builds the app as it was at REF (default: the last commit before writes were kept as
# changes) in a cache folder, once, and prints the path of its main.js, for the bench's
# measures against a build from before (docs/benchmarks/README.md):
#   BENCH_BEFORE_APP="$(bash scripts/bench-before.sh)" pnpm bench                     # what keeping changes costs
#   BENCH_BEFORE_FINDING_APP="$(bash scripts/bench-before.sh 30c5742)" pnpm bench    # the plain list before search and sort
# Needs the repository's history (a clone, not an export) and the toolchain on PATH.
set -euo pipefail
ref="${1:-15cc3c2}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
commit="$(git -C "$root" rev-parse --verify --quiet "$ref^{commit}")" || { echo "bench-before: $ref is not a commit of this repository" >&2; exit 1; }
dir="${WORKPLAN_CACHE:-$HOME/.cache/workplan}/app-at-$commit"
if [ ! -f "$dir/packages/app/dist/main.js" ]; then
  echo "bench-before: building the app at $commit in $dir" >&2
  rm -rf "$dir" && mkdir -p "$dir"
  git -C "$root" archive "$commit" | tar -x -C "$dir"
  (cd "$dir" && pnpm install --frozen-lockfile --prefer-offline >&2 && pnpm build >&2)
fi
echo "$dir/packages/app/dist/main.js"
