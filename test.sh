#!/usr/bin/env bash
# Set up everything the test suite needs on a fresh machine, then run it all.
set -euo pipefail
cd "$(dirname "$0")"

# Browser tests drive Debian's Chromium (Playwright's own download cannot run
# here); the PDF checks render pages with poppler's pdftoppm.
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium chromium-driver)
command -v pdftoppm >/dev/null 2>&1 || need+=(poppler-utils)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  else
    echo "note: ${need[*]} not installed; browser tests will be skipped" >&2
  fi
fi

[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
.venv/bin/python -m pip install -q -e '.[test]'
.venv/bin/python -m compileall -q referee  # as the README's set-up does

.venv/bin/ruff check referee tests bench
.venv/bin/python -m pytest -q "$@"
