#!/bin/sh
# tether's command in the npm package: runs dist/main.js on the Bun that npm installed with it (the
# `bun` package), so no Bun is needed on PATH. npm links this file into <prefix>/bin; follow the links
# back to the package. --no-env-file: a .env in the folder you run tether in is yours, not tether's.
self=$0
while [ -L "$self" ]; do
  link=$(readlink "$self")
  case $link in
    /*) self=$link ;;
    *) self=$(dirname "$self")/$link ;;
  esac
done
pkg=$(cd "$(dirname "$self")/.." && pwd -P)
# Bun's binary comes in a platform package (@oven/bun-<os>-<arch>) that npm installs beside the
# `bun` package; bun/bin/bun.exe is only a copy of it once bun's postinstall ran (npm may skip
# install scripts). Both sit in the package's own node_modules (global install) or beside it.
case $(uname -s) in Linux) os=linux ;; Darwin) os=darwin ;; *) os=other ;; esac
case $(uname -m) in x86_64 | amd64) arch=x64 ;; aarch64 | arm64) arch=aarch64 ;; *) arch=other ;; esac
for dir in "$pkg/node_modules" "$pkg/.."; do
  for bun in "$dir/@oven/bun-$os-$arch/bin/bun" "$dir/@oven/bun-$os-$arch-musl/bin/bun" "$dir/bun/bin/bun.exe"; do
    if [ -x "$bun" ]; then exec "$bun" --no-env-file "$pkg/dist/main.js" "$@"; fi
  done
done
if command -v bun >/dev/null 2>&1; then exec bun --no-env-file "$pkg/dist/main.js" "$@"; fi
echo "tether: Bun is missing (looked for $pkg/node_modules/bun/bin/bun.exe); reinstall: npm install -g tether-<version>.tgz" >&2
exit 127
