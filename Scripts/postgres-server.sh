#!/usr/bin/env bash
# A throwaway PostgreSQL server for the store's tests, on loopback, in a folder of its own.
#
#   eval "$(Scripts/postgres-server.sh start /tmp/taskflow-pg)"   # exports the variables below
#   swift test                                                    # the store suite runs on it too
#   Scripts/postgres-server.sh stop /tmp/taskflow-pg              # stops it and removes the folder
#
# start prints shell exports: TASKFLOW_TEST_POSTGRES_URL (postgres://taskflow@127.0.0.1:PORT/postgres),
# PGPASSWORD (random, never printed elsewhere) and TASKFLOW_TEST_POSTGRES_CA (the CA that signs the
# server's TLS certificate, for sslmode=verify-full tests), and TASKFLOW_TEST_POSTGRES_DATA and
# TASKFLOW_TEST_POSTGRES_BIN (its data folder and pg_ctl's folder, to restart it). Needs Debian's postgresql and openssl;
# as root it runs the server as the postgres user (initdb refuses root).
set -euo pipefail

command=${1:-}
root=${2:-}
if [ -z "$command" ] || [ -z "$root" ]; then
    echo "usage: $0 start|stop FOLDER" >&2
    exit 2
fi
pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
if [ -z "$pg_bin" ]; then
    echo "postgres-server: PostgreSQL is not installed (apt-get install postgresql)" >&2
    exit 2
fi
as_pg=()
if [ "$(id -u)" -eq 0 ]; then as_pg=(runuser -u postgres --); fi

case "$command" in
stop)
    if [ -f "$root/data/postmaster.pid" ]; then
        "${as_pg[@]}" "$pg_bin/pg_ctl" -D "$root/data" -m fast -w stop >/dev/null || true
    fi
    rm -rf "$root"
    ;;
start)
    if [ -e "$root" ] && [ -n "$(ls -A "$root" 2>/dev/null)" ]; then
        echo "postgres-server: $root is not empty" >&2
        exit 2
    fi
    mkdir -p "$root/tls"
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    password=$(head -c 18 /dev/urandom | base64 | tr -d '/+=')
    # A CA and a server certificate for localhost and 127.0.0.1, valid for a day.
    (
        cd "$root/tls"
        openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj "/CN=TaskFlow test CA" -keyout ca.key -out ca.crt 2>/dev/null
        openssl req -newkey rsa:2048 -nodes -subj "/CN=localhost" -keyout server.key -out server.csr 2>/dev/null
        printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\n' > san.ext
        openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 1 -extfile san.ext -out server.crt 2>/dev/null
        chmod 600 server.key
    )
    printf '%s\n' "$password" > "$root/password"
    if [ ${#as_pg[@]} -gt 0 ]; then chown -R postgres: "$root"; fi
    "${as_pg[@]}" "$pg_bin/initdb" -D "$root/data" -U taskflow --pwfile="$root/password" \
        --auth-local=trust --auth-host=scram-sha-256 -E UTF8 --locale=C.UTF-8 --no-sync >"$root/initdb.log"
    rm -f "$root/password"
    "${as_pg[@]}" "$pg_bin/pg_ctl" -D "$root/data" -l "$root/server.log" -w -t 60 -o "-p $port -k $root \
        -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c max_connections=300 \
        -c ssl=on -c ssl_cert_file=$root/tls/server.crt -c ssl_key_file=$root/tls/server.key" start >/dev/null
    echo "export TASKFLOW_TEST_POSTGRES_URL='postgres://taskflow@127.0.0.1:$port/postgres'"
    echo "export TASKFLOW_TEST_POSTGRES_CA='$root/tls/ca.crt'"
    echo "export PGPASSWORD='$password'"
    # For the tests that restart the server mid-run.
    echo "export TASKFLOW_TEST_POSTGRES_DATA='$root/data' TASKFLOW_TEST_POSTGRES_BIN='$pg_bin'"
    ;;
*)
    echo "usage: $0 start|stop FOLDER" >&2
    exit 2
    ;;
esac
