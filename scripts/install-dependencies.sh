#!/usr/bin/env bash
# Installs the C libraries StackDay builds against when they are missing (Debian/Ubuntu): Lua and
# SQLite are linked; GnuTLS, libsodium, libpq, libmicrohttpd, libqrencode and libcrypto are opened
# when TLS, a password, a PostgreSQL store, a server, a pairing QR code or a push message is first used.
set -euo pipefail

missing=()
pkg-config --exists lua5.4 2>/dev/null || missing+=(liblua5.4-dev)
pkg-config --exists sqlite3 2>/dev/null || missing+=(libsqlite3-dev)
pkg-config --exists libpq 2>/dev/null || missing+=(libpq-dev)
pkg-config --exists libmicrohttpd 2>/dev/null || missing+=(libmicrohttpd-dev)
pkg-config --exists gnutls 2>/dev/null || missing+=(libgnutls28-dev)
pkg-config --exists libsodium 2>/dev/null || missing+=(libsodium-dev)
pkg-config --exists libqrencode 2>/dev/null || missing+=(libqrencode-dev)
pkg-config --exists libcrypto 2>/dev/null || missing+=(libssl-dev)
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
# --tests: the PostgreSQL server too, which the PostgreSQL store's tests start for themselves, and
# the headless browser (with its driver, Python's venv for Selenium and axe-core, and a CJK font
# for Korean in its screenshots) of the web app's test.
if [ "${1:-}" = "--tests" ]; then
    ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || missing+=(postgresql)
    [ -x /usr/bin/chromium ] || missing+=(chromium)
    [ -x /usr/bin/chromedriver ] || missing+=(chromium-driver)
    python3 -c "import ensurepip" 2>/dev/null || missing+=(python3-venv)
    [ -d /usr/share/fonts/opentype/noto ] || missing+=(fonts-noto-cjk)
    # The sqlite3 shell: tests write behind the store's back as another program would.
    command -v sqlite3 >/dev/null 2>&1 || missing+=(sqlite3)
    # openssl: the TLS tests' certificate authority, and their TLS client of another make.
    [ -x /usr/bin/openssl ] || missing+=(openssl)
    # zbarimg: reads the pairing QR code back in its test.
    command -v zbarimg >/dev/null 2>&1 || missing+=(zbar-tools)
    # luacheck: the policies and starters are checked against the sandbox's globals.
    command -v luacheck >/dev/null 2>&1 || missing+=(lua-check)
fi

if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    echo "Installing ${missing[*]} ..." >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
