#!/bin/bash
# docs/broker-ha.md, "A highly available PostgreSQL": a primary and a streaming standby (Debian's
# PostgreSQL 15 binaries, run as the postgres user, so as root), a JDBC client inserting a row every 20 ms
# through a multi-host URL with targetServerType=primary, kill -9 of the primary after 20 s, promotion of
# the standby DELAY s later (what Patroni does after its TTL), then: the client's longest gap between
# acknowledged inserts and whether every acknowledged row is on the new primary.
#   PGJDBC=path/to/postgresql-42.7.14.jar (default: the local Maven repository)
#   SYNC=on|off (synchronous standby or not)  DELAY=seconds    e.g.  SYNC=on DELAY=10 ./run.sh
# Everything lives in /tmp/ha/pgprobe/data and is stopped at the end.
set -u
B=/usr/lib/postgresql/15/bin; D=/tmp/ha/pgprobe/data; P1=25432; P2=25433; DELAY=${DELAY:-0}
SYNC=${SYNC:-on}
rm -rf $D; mkdir -p $D; chown postgres $D
as() { su postgres -s /bin/bash -c "$*"; }
as "$B/initdb -D $D/p1 -A trust -U postgres >/dev/null"
cat >> $D/p1/postgresql.conf <<CONF
listen_addresses = '127.0.0.1'
port = $P1
unix_socket_directories = '$D'
wal_level = replica
max_wal_senders = 4
synchronous_standby_names = '$( [ "$SYNC" = on ] && echo standby1 )'
synchronous_commit = on
fsync = on
CONF
echo "host replication postgres 127.0.0.1/32 trust" >> $D/p1/pg_hba.conf
as "$B/pg_ctl -D $D/p1 -l $D/p1.log -w start >/dev/null"
as "$B/pg_basebackup -h 127.0.0.1 -p $P1 -U postgres -D $D/p2 -R -X stream >/dev/null"
sed -i "s/^port = .*/port = $P2/" $D/p2/postgresql.conf
echo "primary_conninfo = 'host=127.0.0.1 port=$P1 user=postgres application_name=standby1'" >> $D/p2/postgresql.auto.conf
as "$B/pg_ctl -D $D/p2 -l $D/p2.log -w start >/dev/null"
sleep 1
psql -h 127.0.0.1 -p $P1 -U postgres -Atc "CREATE TABLE probe(id bigint primary key)" >/dev/null
psql -h 127.0.0.1 -p $P1 -U postgres -Atc "SELECT application_name, state, sync_state FROM pg_stat_replication"
URL="jdbc:postgresql://127.0.0.1:$P1,127.0.0.1:$P2/postgres?targetServerType=primary&connectTimeout=2&socketTimeout=5"
java -cp "${PGJDBC:-$HOME/.m2/repository/org/postgresql/postgresql/42.7.14/postgresql-42.7.14.jar}" "$(dirname "$0")/FailoverProbe.java" "$URL" 45 > $D/probe.out 2>&1 &
PROBE=$!
sleep 20
PM=$(head -1 $D/p1/postmaster.pid)
T0=$(date +%s.%N); kill -9 $PM; pkill -9 -P $PM 2>/dev/null
sleep $DELAY
as "$B/pg_ctl -D $D/p2 -w promote >/dev/null"; T1=$(date +%s.%N)
# The new primary inherited synchronous_standby_names from the old one (pg_basebackup copies it): with no
# standby of its own, every commit would wait forever. Patroni rewrites it; here by hand, at once.
psql -h 127.0.0.1 -p $P2 -U postgres -Atc "ALTER SYSTEM SET synchronous_standby_names = ''" >/dev/null
psql -h 127.0.0.1 -p $P2 -U postgres -Atc "SELECT pg_reload_conf()" >/dev/null
echo "killed primary, promoted standby $(echo "$T1 - $T0" | bc) s later"
wait $PROBE
cat $D/probe.out
as "$B/pg_ctl -D $D/p2 -m immediate stop >/dev/null"
pgrep -u postgres -f "$D" && echo LEFTOVER || echo "no leftovers"
