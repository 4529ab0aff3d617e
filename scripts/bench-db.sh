#!/usr/bin/env bash
# A MongoDB wire server for measures by hand: FerretDB 1.24 on its PostgreSQL backend, over
# Debian's `postgresql` (installed with apt-get when missing), in a throwaway cluster on
# loopback ports. Runs the command with the server up, then removes it all. Faster than
# FerretDB on SQLite (scripts/test-db.sh); with the patch, a findOne by the app's UUID _id
# is filtered by PostgreSQL, but sorts are still done in FerretDB (docs/benchmarks/README.md
# says how fast each is). `pnpm bench` itself measures no MongoDB.
#
#   pnpm build && bash scripts/bench-db.sh node scripts/mongo-query-costs.mjs 1000 10000
#
# Exports MONGODB_URI (mongodb://127.0.0.1:PORT/). PostgreSQL runs at its defaults (fsync
# and synchronous commit on), as the user `postgres` when this runs as root (it refuses to
# run as root).
set -euo pipefail
if [ "$#" -eq 0 ]; then
  echo "usage: bash scripts/bench-db.sh <command...>   (e.g. bash scripts/bench-db.sh node scripts/mongo-query-costs.mjs 1000)" >&2
  exit 2
fi
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# scripts/test-db.sh builds FerretDB into the cache once (it needs Go), with the patch
# that pushes a filter on the app's UUID _id down to PostgreSQL.
ferretdb_bin="$(bash "$repo_root/scripts/test-db.sh" --build)"

pg_bin="$(ls -d /usr/lib/postgresql/*/bin 2> /dev/null | sort -V | tail -n 1 || true)"
if [ -z "$pg_bin" ]; then
  echo "bench-db: installing Debian's postgresql" >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql > /dev/null
  pg_bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)"
fi

as_pg() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

free_port() {
  node -e 'const s = require("node:net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })'
}

wait_port() {
  local waited
  for waited in $(seq 1 100); do
    if (: < "/dev/tcp/127.0.0.1/$1") 2> /dev/null; then return 0; fi
    sleep 0.1
  done
  return 1
}

dir="$(mktemp -d "${TMPDIR:-/tmp}/workplan-bench-db.XXXXXX")"
chmod 755 "$dir"
mkdir "$dir/pg"
[ "$(id -u)" -ne 0 ] || chown postgres "$dir/pg"
ferretdb_pid=""
stop() {
  [ -z "$ferretdb_pid" ] || { kill "$ferretdb_pid" 2> /dev/null; wait "$ferretdb_pid" 2> /dev/null || true; }
  [ ! -f "$dir/pg/data/postmaster.pid" ] || as_pg "$pg_bin/pg_ctl" -D "$dir/pg/data" -m fast stop > /dev/null 2>&1 || true
  rm -rf "$dir"
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

pg_port="$(free_port)"
as_pg "$pg_bin/initdb" -D "$dir/pg/data" -U ferretdb --auth=trust -E UTF8 --no-locale > "$dir/initdb.log"
as_pg "$pg_bin/pg_ctl" -D "$dir/pg/data" -l "$dir/pg/postgres.log" -w \
  -o "-h 127.0.0.1 -p $pg_port -k $dir/pg" start > /dev/null
as_pg "$pg_bin/createdb" -h 127.0.0.1 -p "$pg_port" -U ferretdb ferretdb
pg_version="$("$pg_bin/postgres" --version | sed 's/^postgres (PostgreSQL) //')"

port="$(free_port)"
"$ferretdb_bin" --handler=postgresql --postgresql-url="postgres://ferretdb@127.0.0.1:$pg_port/ferretdb" \
  --state-dir="$dir" --listen-addr="127.0.0.1:$port" --telemetry=disable --debug-addr=- --log-level=warn \
  > "$dir/ferretdb.log" 2>&1 &
ferretdb_pid=$!
if ! wait_port "$port"; then
  echo "bench-db: FerretDB did not answer on port $port:" >&2
  cat "$dir/ferretdb.log" >&2
  exit 1
fi
export MONGODB_URI="mongodb://127.0.0.1:$port/"
ferretdb_version="$("$ferretdb_bin" --version | sed -n 's/^version: v//p')"
server="FerretDB $ferretdb_version with scripts/ferretdb-uuid-pushdown.patch on PostgreSQL $pg_version, loopback, PostgreSQL at its defaults"
echo "bench-db: $server; MONGODB_URI=$MONGODB_URI" >&2
status=0
"$@" || status=$?
exit "$status"
