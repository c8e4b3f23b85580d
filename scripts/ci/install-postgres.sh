#!/usr/bin/env bash
# Installs what `clouddb-emulator --postgres` and tests/emulator/postgres.test.ts need:
# Debian's PostgreSQL server (initdb, postgres, psql under /usr/lib/postgresql/<v>/bin;
# the package also creates the `postgres` system user the emulator runs servers as when
# it is root) and openssl (the servers' self-signed TLS certificate).
#
# Idempotent: exits at once when everything is there. Needs root or sudo for apt-get.
# No default cluster is created or started: the emulator makes its own clusters.
set -euo pipefail

installed() {
  compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null &&
    compgen -G "/usr/lib/postgresql/*/bin/postgres" >/dev/null &&
    command -v psql >/dev/null &&
    command -v openssl >/dev/null &&
    id postgres >/dev/null 2>&1
}

if installed; then
  echo "install-postgres: PostgreSQL and openssl are installed"
  exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
  as_root=()
elif command -v sudo >/dev/null; then
  as_root=(sudo)
else
  echo "install-postgres: PostgreSQL or openssl is missing and this needs root: apt-get install postgresql openssl" >&2
  exit 1
fi

# Keep Debian from creating (and starting) the default cluster on port 5432.
"${as_root[@]}" mkdir -p /etc/postgresql-common
if ! grep -qs '^create_main_cluster *= *false' /etc/postgresql-common/createcluster.conf; then
  echo "create_main_cluster = false" | "${as_root[@]}" tee -a /etc/postgresql-common/createcluster.conf >/dev/null
fi

export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" apt-get install -y -qq --no-install-recommends -o Dpkg::Options::=--force-confold postgresql openssl

installed || { echo "install-postgres: installed, but initdb/postgres/psql/openssl or the postgres user is still missing" >&2; exit 1; }
echo "install-postgres: installed PostgreSQL $(ls /usr/lib/postgresql | sort -V | tail -1) and openssl"
