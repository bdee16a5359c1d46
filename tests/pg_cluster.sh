#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests and benchmarks.
#   tests/pg_cluster.sh start DIR   prints the cluster's URL (socket in DIR)
#   tests/pg_cluster.sh stop DIR    stops it and removes DIR
# initdb and postgres refuse to run as root: as root the cluster runs as the
# 'postgres' user Debian's package creates (else 'nobody'); otherwise as you.
set -euo pipefail
cmd=${1:?start or stop}
dir=${2:?a directory}

bindir() {
  local found
  found=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -z "$found" ] && command -v pg_ctl >/dev/null 2>&1; then
    found=$(dirname "$(readlink -f "$(command -v pg_ctl)")")
  fi
  echo "$found"
}

as_owner() {
  if [ "$(id -u)" = 0 ]; then
    local user=postgres
    id "$user" >/dev/null 2>&1 || user=nobody
    runuser -u "$user" -- "$@"
  else
    "$@"
  fi
}

bin=$(bindir)
case "$cmd" in
  start)
    if [ -z "$bin" ]; then
      echo "no PostgreSQL server binaries (apt-get install postgresql)" >&2
      exit 1
    fi
    mkdir -p "$dir"
    if [ "$(id -u)" = 0 ]; then
      id postgres >/dev/null 2>&1 && chown postgres "$dir" || chown nobody "$dir"
    fi
    as_owner "$bin/initdb" -D "$dir/data" -U referee -A trust -E UTF8 --locale=C.UTF-8 \
      --no-sync >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
    # A unix socket in DIR only: no port of the machine is taken.
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -s start \
      -o "-c listen_addresses='' -k $dir -p 5432 -c max_connections=200" \
      || { cat "$dir/server.log" >&2; exit 1; }
    as_owner "$bin/psql" -h "$dir" -U referee -d postgres -q -c "CREATE DATABASE referee" >&2
    echo "postgresql://referee@/referee?host=$dir&port=5432"
    ;;
  stop)
    if [ -n "$bin" ] && [ -d "$dir/data" ]; then
      as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w -s stop || true
    fi
    rm -rf "$dir"
    ;;
  *)
    echo "start or stop" >&2
    exit 2
    ;;
esac
