#!/usr/bin/env bash
# The fleet harness: a PostgreSQL 15 primary with a synchronous streaming standby, three `./cadastro
# serve` processes on a multi-host JDBC URL, HAProxy in front (benchmarks/fleet/haproxy.cfg), mixed paid
# load through it, and six faults one after another; then the invariants and the figures of each fault.
# Exit status 0 only when every invariant holds. docs/deploy.md, "The fleet", says what it shows.
#
#   benchmarks/fleet/run.sh [--seconds 480] [--rate 30] [--workers 16] [--establishments 20000] [--dir DIR] [--smoke]
#
# The load lasts at least --seconds, and until a minute after the last fault ended: each fault waits for
# a minute of load after the one before it, however long that one took on a busy machine. --smoke runs
# the same faults closer together in about 5 minutes, to try the harness; its figures mean little. The files (exports, recordings) and the register live in s3proxy (the jar the tests use, from
# ~/.m2 or Maven Central): the servers write and read the bucket `fleet-files` and follow the register
# `load --publish` put in `fleet-register`. --shared-folder uses a folder the servers share instead, and
# the index root they all read.
#
# Everything listens on 127.0.0.1. PostgreSQL refuses to run as root: when run as root the script creates
# the system user `cadfleet` and runs PostgreSQL as it. Debian's `postgresql` and `haproxy` are installed
# with apt-get when missing.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SECONDS_OF_LOAD=480
RATE=30
WORKERS=16
ESTABLISHMENTS=20000
DIR=${TMPDIR:-/tmp}/cadastro-fleet
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) SECONDS_OF_LOAD=$2; shift 2 ;;
    --rate) RATE=$2; shift 2 ;;
    --workers) WORKERS=$2; shift 2 ;;
    --establishments) ESTABLISHMENTS=$2; shift 2 ;;
    --dir) DIR=$2; shift 2 ;;
    --smoke) SMOKE=1; shift ;;
    --shared-folder) SHARED_FOLDER=1; shift ;;
    -h|--help) sed -n 2,15p "$0"; exit 0 ;;
    *) echo "unknown flag $1" >&2; exit 2 ;;
  esac
done
# The faults, in seconds after the load started. Each starts at its time or GAP seconds after the one
# before it ended, whichever is later, so the throughput 40-60 s after a fault is never the next fault's;
# the load stops GAP seconds after the last fault ended (and not before --seconds).
T_KILL=40; T_PG_RESTART=105; T_FAILOVER=170; T_SNAPSHOT=235; SNAPSHOT_SECONDS=60; T_PUBLISH=345; T_DRAIN=420; GAP=65
if [ -n "${SMOKE:-}" ]; then # the same faults, closer together: to try the harness, not to measure
  T_KILL=20; T_PG_RESTART=45; T_FAILOVER=70; T_SNAPSHOT=95; SNAPSHOT_SECONDS=15; T_PUBLISH=120; T_DRAIN=140; GAP=15; SECONDS_OF_LOAD=170
fi

PG_BIN=/usr/lib/postgresql/15/bin
PG_PRIMARY=15432
PG_STANDBY=15433
S3=18900
S3PROXY_JAR=$HOME/.m2/repository/org/gaul/s3proxy/2.6.0/s3proxy-2.6.0-jar-with-dependencies.jar
LB=18080
LB_CALLS=18081
RECEIVER=18099

log() { printf '%s fleet: %s\n' "$(date -u +%H:%M:%S)" "$*"; }
now_ms() { date +%s%3N; }

# --- packages and the PostgreSQL user
if [ ! -x "$PG_BIN/postgres" ] || ! command -v haproxy >/dev/null; then
  log "installing postgresql and haproxy with apt-get"
  SUDO=; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q postgresql haproxy
fi
if [ "$(id -u)" = 0 ]; then
  id cadfleet >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin cadfleet
  as_pg() { runuser -u cadfleet -- "$@"; }
else
  as_pg() { "$@"; }
fi

# --- a clean folder; everything this run starts is stopped on exit
PIDS=()
cleanup() {
  set +e
  for i in 1 2 3; do [ -f "$DIR/server$i.pid" ] && kill "$(cat "$DIR/server$i.pid")" 2>/dev/null; done
  [ -f "$DIR/haproxy.pid" ] && kill "$(cat "$DIR/haproxy.pid")" 2>/dev/null
  [ -f "$DIR/s3proxy.pid" ] && kill "$(cat "$DIR/s3proxy.pid")" 2>/dev/null
  for pg in pg1 pg2; do [ -f "$DIR/$pg/postmaster.pid" ] && as_pg "$PG_BIN/pg_ctl" -D "$DIR/$pg" -m immediate stop >/dev/null 2>&1; done
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
}
trap cleanup EXIT
trap 'exit 143' TERM INT
if [ -d "$DIR" ]; then
  for pg in pg1 pg2; do [ -f "$DIR/$pg/postmaster.pid" ] && as_pg "$PG_BIN/pg_ctl" -D "$DIR/$pg" -m immediate stop >/dev/null 2>&1 || true; done
  rm -rf "$DIR"
fi
mkdir -p "$DIR/files" "$DIR/sms" "$DIR/sock"
chmod 755 "$DIR"
# PostgreSQL's user creates its data folders and logs here.
if [ "$(id -u)" = 0 ]; then chown cadfleet "$DIR" "$DIR/sock"; fi
EVENTS="$DIR/events.txt"
: > "$EVENTS"
LAST_END=0
event() { echo "$(now_ms) $1 $2" >> "$EVENTS"; log "$1 $2"; if [ "$1" = end ]; then LAST_END=$(now_ms); fi; }
psql_at() { local port=$1; shift; psql -h 127.0.0.1 -p "$port" -U postgres -X -q -At "$@"; }

# --- PostgreSQL: primary and synchronous standby
log "PostgreSQL 15: primary on $PG_PRIMARY, standby on $PG_STANDBY (synchronous)"
as_pg "$PG_BIN/initdb" -D "$DIR/pg1" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
cat <<CONF | as_pg tee -a "$DIR/pg1/postgresql.conf" >/dev/null
listen_addresses = '127.0.0.1'
port = $PG_PRIMARY
unix_socket_directories = '$DIR/sock'
max_connections = 200
shared_buffers = 128MB
wal_level = replica
max_wal_senders = 5
wal_keep_size = 512MB
hot_standby = on
synchronous_commit = on
CONF
as_pg "$PG_BIN/pg_ctl" -D "$DIR/pg1" -l "$DIR/pg1.log" -w start >/dev/null
psql_at $PG_PRIMARY -c "CREATE ROLE cadastro LOGIN" -c "CREATE DATABASE cadastro OWNER cadastro"
as_pg "$PG_BIN/pg_basebackup" -d "host=127.0.0.1 port=$PG_PRIMARY user=postgres application_name=standby" \
  -D "$DIR/pg2" -R -X stream -c fast >/dev/null
echo "port = $PG_STANDBY" | as_pg tee -a "$DIR/pg2/postgresql.conf" >/dev/null
as_pg "$PG_BIN/pg_ctl" -D "$DIR/pg2" -l "$DIR/pg2.log" -w start >/dev/null
for _ in $(seq 1 50); do
  [ "$(psql_at $PG_PRIMARY -c "SELECT state FROM pg_stat_replication WHERE application_name = 'standby'")" = streaming ] && break
  sleep 0.2
done
# Synchronous from now on: a commit is acknowledged once the standby has flushed it, so a failover loses
# no acknowledged charge. The cost: one loopback round trip per commit, and writes wait while no standby
# is connected (the promoted node gets the list emptied, see the failover below).
psql_at $PG_PRIMARY -c "ALTER SYSTEM SET synchronous_standby_names = 'standby'" -c "SELECT pg_reload_conf()" >/dev/null
for _ in $(seq 1 50); do
  [ "$(psql_at $PG_PRIMARY -c "SELECT sync_state FROM pg_stat_replication WHERE application_name = 'standby'")" = sync ] && break
  sleep 0.2
done
log "replication: $(psql_at $PG_PRIMARY -c "SELECT application_name || ' ' || state || ' ' || sync_state FROM pg_stat_replication")"
URL="jdbc:postgresql://127.0.0.1:$PG_PRIMARY,127.0.0.1:$PG_STANDBY/cadastro?user=cadastro&targetServerType=primary"

# --- the application, the register and the load generator
cd "$ROOT"
. .mvn/find-jdk.sh
log "building (./cadastro and the benchmarks jar)"
./cadastro --version >/dev/null
if [ ! -f benchmarks/target/benchmarks.jar ] || [ -n "$(find benchmarks/src modules -newer benchmarks/target/benchmarks.jar -name '*.java' -print -quit)" ]; then
  ./mvnw -B -q -pl benchmarks -am package -DskipTests -Dspotless.check.skip=true
fi
# The run uses copies, so a build in this checkout during the run changes nothing under it.
mkdir -p "$DIR/app"
cp -r modules/server/target/cadastro-server.jar modules/server/target/lib "$DIR/app/"
cp benchmarks/target/benchmarks.jar "$DIR/app/"
cadastro() {
  "$JAVA_HOME/bin/java" --enable-native-access=org.apache.lucene.core ${CADASTRO_JAVA_OPTS:-} \
    --module-path "$DIR/app/cadastro-server.jar:$DIR/app/lib" --module dev.cadastro.server/dev.cadastro.server.cli.Cli "$@"
}
# In the background (`exec_cadastro serve ... &`) the subshell becomes the JVM, so $! is its pid.
exec_cadastro() {
  exec "$JAVA_HOME/bin/java" --enable-native-access=org.apache.lucene.core ${CADASTRO_JAVA_OPTS:-} \
    --module-path "$DIR/app/cadastro-server.jar:$DIR/app/lib" --module dev.cadastro.server/dev.cadastro.server.cli.Cli "$@"
}
J=("$JAVA_HOME/bin/java" -Xmx768m -cp "$DIR/app/benchmarks.jar" dev.cadastro.benchmarks.fleet.FleetRun)
if [ -z "${SHARED_FOLDER:-}" ]; then
  [ -f "$S3PROXY_JAR" ] || ./mvnw -B -q dependency:get -Dartifact=org.gaul:s3proxy:2.6.0:jar:jar-with-dependencies
  mkdir -p "$DIR/s3/fleet-files" "$DIR/s3/fleet-register" # a folder under basedir is a bucket
  cat > "$DIR/s3proxy.conf" <<CONF
s3proxy.endpoint=http://127.0.0.1:$S3
s3proxy.authorization=aws-v2-or-v4
s3proxy.identity=fleet-access-key
s3proxy.credential=fleet-secret-key
jclouds.provider=filesystem
jclouds.filesystem.basedir=$DIR/s3
CONF
  "$JAVA_HOME/bin/java" -Xmx256m -jar "$S3PROXY_JAR" --properties "$DIR/s3proxy.conf" > "$DIR/s3proxy.log" 2>&1 &
  echo $! > "$DIR/s3proxy.pid"
  for _ in $(seq 1 120); do curl -s -o /dev/null "http://127.0.0.1:$S3/" && break; sleep 0.25; done
  export AWS_ACCESS_KEY_ID=fleet-access-key AWS_SECRET_ACCESS_KEY=fleet-secret-key
  PUBLISH=(--publish s3://fleet-register --s3-endpoint "http://127.0.0.1:$S3")
  log "s3proxy on $S3: buckets fleet-files and fleet-register"
else
  PUBLISH=()
fi
log "register: $ESTABLISHMENTS synthetic establishments"
cadastro generate --out "$DIR/dump" --establishments "$ESTABLISHMENTS" --seed 7 --threads 2 >/dev/null
cadastro load --dump "$DIR/dump" --index "$DIR/index" --threads 2 "${PUBLISH[@]}" >/dev/null
"${J[@]}" setup --database "$URL" --accounts 6 --receiver "http://127.0.0.1:$RECEIVER/push" --out "$DIR/setup.properties"

# --- three servers; the first creates the shared SMS and call-records keys, the others read them
start_server() {
  local i=$1 where
  if [ -z "${SHARED_FOLDER:-}" ]; then
    where=(--index s3://fleet-register --index-cache "$DIR/cache$i" --index-poll 5s --files s3://fleet-files
      --s3-endpoint "http://127.0.0.1:$S3")
  else
    where=(--index "$DIR/index" --files "$DIR/files")
  fi
  CADASTRO_JAVA_OPTS="-Xmx512m" exec_cadastro serve "${where[@]}" --database "$URL" \
    --bind 127.0.0.1 --port 1818$i --calls-port 1828$i --recordings-port 1838$i --metrics-port 1848$i \
    --sms-dir "$DIR/sms" --simulated-exchange fleet --calls-refresh 5s \
    --push-allow-http --push-allow-private --requests-per-minute 1000000 --drain-seconds 5 \
    --access-log off --max-connections-per-address 4096 >> "$DIR/server$i.log" 2>&1 &
  echo $! > "$DIR/server$i.pid"
}
# Waits for server $1 to be ready; a server that exits first (it refuses to start while the database
# does not answer) is started again, as its supervisor (systemd Restart=on-failure) would.
wait_ready() {
  local starts=1
  for _ in $(seq 1 480); do
    curl -fs "http://127.0.0.1:1818$1/health/ready" >/dev/null 2>&1 && return 0
    if ! kill -0 "$(cat "$DIR/server$1.pid")" 2>/dev/null && [ $starts -lt 5 ]; then
      log "server $1 exited before it was ready ($(tail -n 1 "$DIR/server$1.log")); starting it again"
      starts=$((starts + 1))
      start_server "$1"
    fi
    sleep 0.25
  done
  log "server $1 never became ready; its log:"; tail -20 "$DIR/server$1.log"; return 1
}
start_server 1; wait_ready 1
start_server 2; start_server 3; wait_ready 2; wait_ready 3
log "servers ready on 18181-18183 (calls 18281-18283)"

cp benchmarks/fleet/haproxy.cfg "$DIR/haproxy.cfg"
haproxy -f "$DIR/haproxy.cfg" -p "$DIR/haproxy.pid" -D
reload_haproxy() { kill -USR2 "$(head -1 "$DIR/haproxy.pid")"; }
for _ in $(seq 1 40); do curl -fs "http://127.0.0.1:$LB/health/ready" >/dev/null && break; sleep 0.25; done
log "HAProxy on $LB (company data) and $LB_CALLS (call records)"

# --- the load, and the faults at their moments
"${J[@]}" load --setup "$DIR/setup.properties" --base "http://127.0.0.1:$LB" --calls-base "http://127.0.0.1:$LB_CALLS" \
  --servers "http://127.0.0.1:18181,http://127.0.0.1:18182,http://127.0.0.1:18183" --database "$URL" \
  --sms-inbox "$DIR/sms/sms-inbox.tsv" --seconds $((SECONDS_OF_LOAD + 900)) --stop-file "$DIR/stop" --rate "$RATE" --workers "$WORKERS" \
  --receiver-port $RECEIVER --events "$EVENTS" --started "$DIR/started" > "$DIR/load.log" 2>&1 &
LOAD=$!
PIDS+=("$LOAD")
for _ in $(seq 1 600); do [ -f "$DIR/started" ] && break; kill -0 $LOAD 2>/dev/null || break; sleep 0.1; done
[ -f "$DIR/started" ] || { cat "$DIR/load.log"; exit 1; }
STARTED=$(cat "$DIR/started")
at() {
  local due=$(( STARTED + $1 * 1000 )) after=$(( LAST_END + GAP * 1000 ))
  [ $after -gt $due ] && due=$after
  local wait_ms=$(( due - $(now_ms) ))
  [ $wait_ms -gt 0 ] && sleep "$(printf '%d.%03d' $((wait_ms / 1000)) $((wait_ms % 1000)))"
  return 0
}
dead_tuples() {
  psql_at "$1" -d cadastro -c "SELECT string_agg(relname || '=' || n_dead_tup, ' ' ORDER BY relname) FROM pg_stat_user_tables
    WHERE relname IN ('mailing_jobs', 'call_deliveries', 'person_jobs', 'sms_dispatches', 'idempotency_requests', 'rate_minute', 'holds')"
}
kill_tree() { local p=$1; for c in $(ps -o pid= --ppid "$p"); do kill -9 "$c" 2>/dev/null || true; done; kill -9 "$p" 2>/dev/null || true; }

at $T_KILL
event start server-kill
kill -9 "$(cat "$DIR/server1.pid")"
sleep 10
start_server 1; wait_ready 1
event end server-kill

at $T_PG_RESTART
event start postgres-restart
as_pg "$PG_BIN/pg_ctl" -D "$DIR/pg1" -l "$DIR/pg1.log" -m fast -w restart >/dev/null
event end postgres-restart

at $T_FAILOVER
# What the old primary has committed just before it dies; all of it must be on the new primary.
read -r LAST_ID LAST_COUNT <<< "$(psql_at $PG_PRIMARY -d cadastro -F ' ' -c "SELECT coalesce(max(id), 0), count(*) FROM ledger_entries")"
event start failover
kill_tree "$(head -1 "$DIR/pg1/postmaster.pid")"
as_pg "$PG_BIN/pg_ctl" -D "$DIR/pg2" -w promote >/dev/null
# The new primary has no standby: empty the list, or its commits would wait for one (Patroni does the same).
psql_at $PG_STANDBY -c "ALTER SYSTEM SET synchronous_standby_names = ''" -c "SELECT pg_reload_conf()" >/dev/null
event end failover

at $T_SNAPSHOT
log "dead tuples before the held snapshot: $(dead_tuples $PG_STANDBY)"
event start held-snapshot
psql_at $PG_STANDBY -d cadastro -c "BEGIN ISOLATION LEVEL REPEATABLE READ; SELECT count(*) FROM mailing_jobs; SELECT pg_sleep($SNAPSHOT_SECONDS); COMMIT;" >/dev/null
event end held-snapshot
log "dead tuples after the held snapshot: $(dead_tuples $PG_STANDBY)"

at $T_PUBLISH
event start publish
GEN_BEFORE=$(curl -fs http://127.0.0.1:18481/metrics | awk '/^cadastro_register_generation /{print $2}')
cadastro load --dump "$DIR/dump" --index "$DIR/index" --threads 1 "${PUBLISH[@]}" >/dev/null
for i in 1 2 3; do
  for _ in $(seq 1 120); do
    g=$(curl -fs "http://127.0.0.1:1848$i/metrics" | awk '/^cadastro_register_generation /{print $2}')
    [ -n "$g" ] && [ "$g" != "$GEN_BEFORE" ] && break
    sleep 0.5
  done
done
event end publish
log "register generation $GEN_BEFORE -> $(curl -fs http://127.0.0.1:18481/metrics | awk '/^cadastro_register_generation /{print $2}') on every server"

at $T_DRAIN
event start drain
sed -E 's/^( *server s3 .*)$/\1 disabled/' benchmarks/fleet/haproxy.cfg > "$DIR/haproxy.cfg"
reload_haproxy
kill -TERM "$(cat "$DIR/server3.pid")"
while kill -0 "$(cat "$DIR/server3.pid")" 2>/dev/null; do sleep 0.2; done
start_server 3; wait_ready 3
cp benchmarks/fleet/haproxy.cfg "$DIR/haproxy.cfg"
reload_haproxy
event end drain

at "$SECONDS_OF_LOAD"
touch "$DIR/stop"
set +e
wait $LOAD
STATUS=$?
set -e
cat "$DIR/load.log"
LOST=$(( LAST_COUNT - $(psql_at $PG_STANDBY -d cadastro -c "SELECT count(*) FROM ledger_entries WHERE id <= $LAST_ID") ))
echo "Ledger entries the old primary had committed (ids up to $LAST_ID: $LAST_COUNT) and the new primary lacks after the failover: $LOST"
[ "$LOST" = 0 ] || STATUS=1
log "done, exit status $STATUS; logs in $DIR"
exit $STATUS
