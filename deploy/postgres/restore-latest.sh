#!/bin/sh
# The runbook's restore in compose (docs/operations.md, "When the disk dies"), run as root in a one-off `backup`
# container while `postgres` is stopped: the newest backup into the (new, empty) data volume; at its next start
# PostgreSQL replays the archived WAL to the latest point the repository holds, then accepts connections.
# Arguments go to `pgbackrest restore` (e.g. --type=time "--target=2026-11-29 11:00:00+00").
set -eu
stanza=${BACKUP_STANZA:-pixel-atlas}
data=/var/lib/postgresql/data
mkdir -p "$data"
chown postgres:postgres "$data"
chmod 700 "$data"
# --delta rewrites only what differs when files are left; on an empty directory pgBackRest restores everything.
exec setpriv --reuid=postgres --regid=postgres --init-groups pgbackrest --stanza="$stanza" --delta restore "$@"
