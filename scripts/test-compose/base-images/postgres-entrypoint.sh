#!/bin/sh
# The official postgres image's contract, in short: a first start initialises PGDATA with POSTGRES_USER (password
# POSTGRES_PASSWORD, scram-sha-256 over the network) and creates POSTGRES_DB; every start runs postgres as `postgres`.
set -eu
: "${POSTGRES_USER:=postgres}" "${POSTGRES_DB:=$POSTGRES_USER}"
if [ "$1" = postgres ] && [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA" /var/run/postgresql
  chown postgres:postgres "$PGDATA" /var/run/postgresql
  chmod 700 "$PGDATA"
  if [ ! -s "$PGDATA/PG_VERSION" ]; then
    : "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is required}"
    pwfile=$(mktemp) && printf '%s\n' "$POSTGRES_PASSWORD" > "$pwfile" && chown postgres "$pwfile"
    setpriv --reuid=postgres --regid=postgres --init-groups \
      initdb --username="$POSTGRES_USER" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 --encoding=UTF8 --locale=C.UTF-8
    rm -f "$pwfile"
    echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
    if [ "$POSTGRES_DB" != postgres ]; then
      # Single-user mode takes SQL on stdin; the name is quoted as an identifier.
      printf 'CREATE DATABASE "%s";\n' "$(printf '%s' "$POSTGRES_DB" | sed 's/"/""/g')" |
        setpriv --reuid=postgres --regid=postgres --init-groups postgres --single -D "$PGDATA" -j postgres >/dev/null
    fi
  fi
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$@" -c listen_addresses='*'
fi
exec "$@"
