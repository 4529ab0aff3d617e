#!/usr/bin/env bash
# Fuzzes the built service against its own /openapi.json with Schemathesis (memory store).
# Fails on a server error or a response that breaks the document (status, content type,
# headers, body schema). Whether valid data is accepted and invalid data rejected is run
# and reported, but does not fail: the document cannot state every rule of the contract.
#
#   bash scripts/fuzz.sh            FUZZ_MAX_EXAMPLES=200 FUZZ_SEED=1 bash scripts/fuzz.sh
#
# Needs Node 26 + pnpm (scripts/toolchain.sh) and Python >= 3.11 (PYTHON, default python3).
# Output: test-output/schemathesis/ (logs, JSON reports, the app's log).
set -euo pipefail
cd "$(dirname "$0")/.."

version=4.32.5
venv="${WORKPLAN_CACHE:-$HOME/.cache/workplan}/schemathesis-$version"
python="${PYTHON:-python3}"
examples="${FUZZ_MAX_EXAMPLES:-100}"
key='fuzz-key-0123456789abcdef'
out="$PWD/test-output/schemathesis"
config="$PWD/scripts/fuzz.toml"
failing_checks='not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance'
reported_checks='positive_data_acceptance,negative_data_rejection'

say() { printf '\n--> fuzz: %s\n' "$*"; }

# 1. Schemathesis, pinned, in a venv kept between runs. `.complete` marks a finished install.
if [[ ! -f "$venv/.complete" ]]; then
  "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' ||
    { echo "fuzz: schemathesis $version needs Python >= 3.11; set PYTHON" >&2; exit 2; }
  say "installing schemathesis $version into $venv"
  rm -rf "$venv"
  "$python" -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$version"
  touch "$venv/.complete"
fi
st="$venv/bin/schemathesis"

# 2. The app as a process, from a clean environment: memory store, one fixed key, a port of
#    the system's choosing (PORT=0; the URL is read from its start-up line).
say "building"
pnpm -s build
rm -rf "$out" && mkdir -p "$out"
env -i PATH="$PATH" HOME="$HOME" API_KEYS="$key" HOST=127.0.0.1 PORT=0 STORAGE=memory LOG_LEVEL=warn \
  node packages/app/dist/main.js >"$out/app.log" 2>&1 &
app=$!
trap 'kill "$app" 2>/dev/null; wait "$app" 2>/dev/null || true' EXIT

url=''
for _ in $(seq 100); do
  url=$(sed -n 's/.*workplan listening on \(http[^ "]*\).*/\1/p' "$out/app.log")
  [[ -n "$url" ]] && node -e 'fetch(process.argv[1]).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))' "$url/health/live" && break
  kill -0 "$app" 2>/dev/null || { cat "$out/app.log" >&2; echo 'fuzz: the app did not start' >&2; exit 2; }
  url=''
  sleep 0.1
done
[[ -n "$url" ]] || { cat "$out/app.log" >&2; echo 'fuzz: the app never answered /health/live' >&2; exit 2; }
say "app at $url"

# 3. Two runs on the same app. One worker: CPython 3.11's ast.parse is not thread-safe, and
#    Hypothesis calls it from the workers ("AST constructor recursion depth mismatch").
#    Schemathesis writes .hypothesis/ and .schemathesis/ into its working directory: $out.
run() { # name checks max-examples
  local name=$1 checks=$2 max=$3
  say "$name: checks $checks, up to $max examples per operation"
  (cd "$out" && "$st" --config-file "$config" run "$url/openapi.json" -H "KEY: $key" --checks "$checks" \
    --phases examples,coverage,fuzzing,stateful --max-examples "$max" --workers 1 \
    ${FUZZ_SEED:+--seed "$FUZZ_SEED"} --request-timeout 10 --no-color \
    --report json --report-json-path "$out/$name.json" >"$out/$name.log" 2>&1)
}
set +e
run conformance "$failing_checks" "$examples"
conformance=$?
run data-acceptance "$reported_checks" "$(( (examples + 1) / 2 ))"
set -e

# 4. What ran and what it found, from the JSON reports.
"$venv/bin/python" - "$out" <<'PY'
import json, pathlib, sys
out = pathlib.Path(sys.argv[1])
for name, verdict in (("conformance", "FAILS the run"), ("data-acceptance", "reported only")):
    path = out / f"{name}.json"
    if not path.exists():
        print(f"{name}: no report ({path})"); continue
    r = json.loads(path.read_text())
    cases = r["test_cases"]
    print(f"{name} ({verdict}): {cases['generated']} cases, {cases['unique_failures']} unique failures, "
          f"{len(r['errors'])} errors, {r['operations']['tested']}/{r['operations']['selected']} operations, "
          f"seed {r['seed']}, {r['running_time']:.0f} s")
    for f in r["failures"]:
        print(f"  {f['code']} {f['title']} x{f['count']}: {', '.join(f['operations'])}")
PY

# 5. The app stops on exit (trap). Only the conformance run decides the exit status; its
#    whole log is printed when it fails (both logs are in $out either way).
if (( conformance != 0 )); then
  cat "$out/conformance.log" >&2
  echo "fuzz: FAILED: the conformance run found failures or errors (its log is above and in $out/conformance.log)" >&2
  exit 1
fi
echo "fuzz: passed (data-acceptance findings, if any, are above and in $out/data-acceptance.log)"
