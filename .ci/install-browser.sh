#!/usr/bin/env bash
# Install headless Chromium for the report's browser test (tests/test_report.py), if missing.
# Debian package `chromium`; needs root (or sudo). Idempotent: does nothing when present.
set -euo pipefail

if command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]; then
    echo "install-browser: chromium already installed: $(command -v chromium || echo /usr/bin/chromium)"
    exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
    as_root=()
elif command -v sudo >/dev/null 2>&1; then
    as_root=(sudo)
else
    echo "install-browser: chromium is missing and neither root nor sudo is available" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" apt-get install -y -qq --no-install-recommends chromium
echo "install-browser: installed $(/usr/bin/chromium --version 2>/dev/null || echo chromium)"
