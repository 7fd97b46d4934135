#!/bin/sh
# The compose `backup` service: creates the stanza once the database answers (and checks that WAL reaches the
# repository), then takes a base backup every BACKUP_INTERVAL_SECONDS (incremental; full every BACKUP_FULL_EVERY-th
# and the first time). Runs as postgres, beside the database: it reads the data volume and talks over the socket volume.
set -u
stanza=${BACKUP_STANZA:-pixel-atlas}
interval=${BACKUP_INTERVAL_SECONDS:-3600}
full_every=${BACKUP_FULL_EVERY:-24}
until pgbackrest --stanza="$stanza" stanza-create; do
  echo "backup: stanza-create failed (database not up yet?); again in 5 s" >&2
  sleep 5
done
pgbackrest --stanza="$stanza" check || echo "backup: check failed: is archive_command set on the postgres service?" >&2
n=0
while :; do
  type=incr
  if [ "$n" -gt 0 ] && [ $((n % full_every)) -eq 0 ]; then type=full; fi
  if pgbackrest --stanza="$stanza" backup --type="$type"; then
    echo "backup: $type backup done"
    n=$((n + 1))
    sleep "$interval"
  else
    echo "backup: $type backup failed; again in 60 s" >&2
    sleep 60
  fi
done
