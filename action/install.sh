#!/usr/bin/env bash
# Installs cargo-speedup into $SPEEDUP_ROOT (cached between runs) and puts it on the PATH of later steps.
# SPEEDUP_VERSION empty: build the action's own checkout ($SPEEDUP_SOURCE); else that crates.io version.
set -euo pipefail
root=${SPEEDUP_ROOT/#\~/$HOME}
if [ -x "$root/bin/cargo-speedup" ]; then
  echo "cargo-speedup is cached in $root"
elif [ -z "${SPEEDUP_VERSION:-}" ]; then
  cargo install --locked --path "$SPEEDUP_SOURCE" --root "$root"
else
  cargo install --locked cargo-speedup --version "$SPEEDUP_VERSION" --root "$root"
fi
echo "$root/bin" >> "$GITHUB_PATH"
