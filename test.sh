#!/usr/bin/env bash
# Set up everything the test suite needs on a fresh machine, then run it all.
set -euo pipefail
cd "$(dirname "$0")"

# Browser tests drive Debian's Chromium (Playwright's own download cannot run
# here); the PDF checks render pages with poppler's pdftoppm; the PostgreSQL
# backend's tests need a server's binaries (a throwaway cluster is made below).
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium chromium-driver)
command -v pdftoppm >/dev/null 2>&1 || need+=(poppler-utils)
# The night's essential path in the other engines (tests/test_browser_engines.py):
# Firefox ESR over Marionette, WebKitGTK's WebDriver under a virtual display.
command -v firefox-esr >/dev/null 2>&1 || need+=(firefox-esr)
command -v WebKitWebDriver >/dev/null 2>&1 || need+=(webkit2gtk-driver)
command -v xvfb-run >/dev/null 2>&1 || need+=(xvfb)
if [ -z "${REFEREE_TEST_DATABASE_URL:-}" ] && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 \
    && ! command -v initdb >/dev/null 2>&1; then
  need+=(postgresql)
fi
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  else
    echo "note: ${need[*]} not installed; the tests that need them will be skipped" >&2
  fi
fi

[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
.venv/bin/python -m pip install -q -e '.[test]'
.venv/bin/python -m compileall -q referee  # as the README's set-up does

.venv/bin/ruff check referee tests bench
# The types of rules, ledger, record and service (pyproject.toml's [tool.mypy]).
.venv/bin/python -m mypy

# A PostgreSQL cluster of its own for this run (a unix socket in a temporary
# directory, no port taken), stopped and removed when the run ends. A server
# given in REFEREE_TEST_DATABASE_URL is used instead.
if [ -z "${REFEREE_TEST_DATABASE_URL:-}" ]; then
  pg_dir=$(mktemp -d /tmp/referee-pg.XXXXXX)
  trap 'tests/pg_cluster.sh stop "$pg_dir"' EXIT
  if url=$(tests/pg_cluster.sh start "$pg_dir"); then
    export REFEREE_TEST_DATABASE_URL="$url"
  else
    echo "note: no PostgreSQL server could be started; its tests will be skipped" >&2
  fi
fi
# WebKitGTK draws on a display: a virtual one when there is none.
# (Not exec'd: the trap above still stops the PostgreSQL cluster.)
if [ -z "${DISPLAY:-}" ] && command -v xvfb-run >/dev/null 2>&1; then
  xvfb-run -a .venv/bin/python -m pytest -q "$@"
else
  .venv/bin/python -m pytest -q "$@"
fi
