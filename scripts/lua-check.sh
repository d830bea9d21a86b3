#!/usr/bin/env bash
# The built-in policies, the documentation's examples and the starters `policy new` writes, read
# by luacheck (Debian's lua-check) against the sandbox's globals (.luacheckrc): no warning passes.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v luacheck >/dev/null || { echo "error: luacheck is missing: apt-get install lua-check" >&2; exit 1; }
luacheck --config .luacheckrc --formatter plain Policies docs/examples Sources/StackDayLua/Lua
echo "luacheck: the built-in policies, the examples and the starters are clean"
