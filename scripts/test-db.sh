#!/usr/bin/env bash
# A throwaway test database: FerretDB (the MongoDB wire protocol over SQLite) on a free
# loopback port, so the integration tests run against a real MongoDB-speaking server
# without Docker. Needs Go and git (to build FerretDB once) and python3 or node (to pick a port).
#
#   bash scripts/test-db.sh pnpm test   # runs the command with the database up, returns its status
#   . scripts/test-db.sh                 # in a shell: starts it, exports the variables, stops on exit
#
#   bash scripts/test-db.sh --build      # only builds it, and prints the binary's path
#
# Exports MONGODB_URI (mongodb://127.0.0.1:PORT/) and FERRETDB_BIN (the binary, for tests
# that start an instance of their own to take it down). The binary is cached under
# ${WORKPLAN_CACHE:-~/.cache/workplan}/ferretdb-1.24.2-<first 12 hex of the patch's sha256>.
#
# It is built with ferretdb-uuid-pushdown.patch (applied with git), which lets the
# PostgreSQL backend (the bench's, scripts/bench-db.sh) hand an equality filter on a
# top-level binary field, such as the app's UUID _id, to PostgreSQL instead of scanning
# the collection in FerretDB. The SQLite backend the tests use is untouched.

ferretdb_version=v1.24.2
ferretdb_patch="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/ferretdb-uuid-pushdown.patch"
# Named by the patch's content, so an edited patch is built anew.
ferretdb_home="${WORKPLAN_CACHE:-$HOME/.cache/workplan}/ferretdb-${ferretdb_version#v}-$(sha256sum "$ferretdb_patch" | cut -c1-12)"

# `go install ...@v1.24.2` fails here (the proxy refuses the @v/list deprecation lookup),
# and a binary built straight from the module cache panics at start because the
# generated build/version/version.txt is missing; so build a writable copy with it added.
test_db_build() {
  local bin="$ferretdb_home/bin/ferretdb"
  [ -x "$bin" ] && return 0
  echo "test-db: building FerretDB $ferretdb_version into $bin" >&2
  local work module_dir
  work="$(mktemp -d)"
  module_dir="$(cd "$work" && go mod download -json "github.com/FerretDB/FerretDB@$ferretdb_version" |
    sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p')"
  if [ -z "$module_dir" ] || [ ! -d "$module_dir" ]; then
    echo "test-db: go mod download gave no module directory" >&2
    rm -rf "$work"
    return 1
  fi
  cp -R "$module_dir" "$work/src"
  chmod -R u+w "$work/src"
  # The ceiling keeps git from taking a repository around the temp dir for its own: there
  # it would skip the patch's paths as outside it, and still succeed. The grep checks it took.
  if ! GIT_CEILING_DIRECTORIES="$work" git -C "$work/src" apply "$ferretdb_patch" ||
    ! grep -q 'types.ObjectID, types.Binary' "$work/src/internal/backends/postgresql/query.go"; then
    echo "test-db: $ferretdb_patch does not apply to FerretDB $ferretdb_version" >&2
    rm -rf "$work"
    return 1
  fi
  printf '%s\n' "$ferretdb_version" > "$work/src/build/version/version.txt"
  mkdir -p "$ferretdb_home/bin"
  # Build beside the target and rename, so a concurrent run never sees half a binary.
  if ! (cd "$work/src" && go build -o "$bin.$$" ./cmd/ferretdb); then
    rm -rf "$work" "$bin.$$"
    return 1
  fi
  mv -f "$bin.$$" "$bin"
  rm -rf "$work"
}

test_db_free_port() {
  local pick='import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
  if command -v python3 > /dev/null; then
    python3 -c "$pick"
  else
    node -e 'const s = require("node:net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })'
  fi
}

# Starts FerretDB and waits until its port answers; tries three ports, as another process
# may take the one picked before FerretDB binds it.
test_db_start() {
  test_db_build || return 1
  export FERRETDB_BIN="$ferretdb_home/bin/ferretdb"
  test_db_dir="$(mktemp -d "${TMPDIR:-/tmp}/workplan-test-db.XXXXXX")"
  local attempt port waited
  for attempt in 1 2 3; do
    port="$(test_db_free_port)"
    "$FERRETDB_BIN" --handler=sqlite --sqlite-url="file:$test_db_dir/" --state-dir="$test_db_dir" \
      --listen-addr="127.0.0.1:$port" --telemetry=disable --debug-addr=- --log-level=warn \
      > "$test_db_dir/ferretdb.log" 2>&1 &
    test_db_pid=$!
    for waited in $(seq 1 100); do
      if ! kill -0 "$test_db_pid" 2> /dev/null; then break; fi
      if (: < "/dev/tcp/127.0.0.1/$port") 2> /dev/null; then
        export MONGODB_URI="mongodb://127.0.0.1:$port/"
        echo "test-db: FerretDB $ferretdb_version listening, MONGODB_URI=$MONGODB_URI (${waited}00 ms)" >&2
        return 0
      fi
      sleep 0.1
    done
    echo "test-db: FerretDB did not answer on port $port (attempt $attempt):" >&2
    cat "$test_db_dir/ferretdb.log" >&2
    test_db_stop
    test_db_dir="$(mktemp -d "${TMPDIR:-/tmp}/workplan-test-db.XXXXXX")"
  done
  return 1
}

test_db_stop() {
  if [ -n "${test_db_pid:-}" ]; then
    kill "$test_db_pid" 2> /dev/null && wait "$test_db_pid" 2> /dev/null
    test_db_pid=""
  fi
  if [ -n "${test_db_dir:-}" ]; then
    rm -rf "$test_db_dir"
    test_db_dir=""
  fi
  return 0
}

if [ "${BASH_SOURCE[0]}" != "$0" ]; then
  # Sourced: leave the caller's shell options alone and stop the database when it exits.
  test_db_start && trap test_db_stop EXIT
  return
fi

set -euo pipefail
if [ "${1:-}" = "--build" ]; then
  test_db_build
  echo "$ferretdb_home/bin/ferretdb"
  exit 0
fi
if [ "$#" -eq 0 ]; then
  echo "usage: bash scripts/test-db.sh <command...> | --build   (e.g. bash scripts/test-db.sh pnpm test)" >&2
  exit 2
fi
trap test_db_stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
test_db_start
status=0
"$@" || status=$?
exit "$status"
