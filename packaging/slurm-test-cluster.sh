#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A private one-node Slurm cluster on this machine, for the dispatcher tests
# (ctest label `slurm`). Debian 12's slurm 22.05 has no auth plugin but munge,
# so a private munged runs next to slurmctld and slurmd. Everything lives in
# one folder; nothing of a system slurm or munge is touched.
#   packaging/slurm-test-cluster.sh start     start it, wait until the node is idle
#   packaging/slurm-test-cluster.sh stop      stop what `start` started, remove the folder
#   packaging/slurm-test-cluster.sh run CMD   start, run CMD with SLURM_CONF exported, stop; exits with CMD's status
#   packaging/slurm-test-cluster.sh env       print the export line for a running cluster
# Environment: CRUCIBLE_SLURM_DIR (the folder, default /tmp/crucible-slurm-test),
# CRUCIBLE_SLURM_PORT (slurmctld's port; slurmd uses the next, default 16817),
# CRUCIBLE_SLURM_WAIT (seconds to wait for an idle node, default 60).
set -euo pipefail

dir="${CRUCIBLE_SLURM_DIR:-/tmp/crucible-slurm-test}"
port="${CRUCIBLE_SLURM_PORT:-16817}"
wait_s="${CRUCIBLE_SLURM_WAIT:-60}"
host="$(hostname -s)"
conf="$dir/slurm.conf"

die() { echo "slurm-test-cluster: $*" >&2; exit 1; }

need() {
  for tool in "$@"; do
    command -v "$tool" >/dev/null 2>&1 ||
      die "'$tool' is not installed (apt-get install -y slurmctld slurmd slurm-client munge)"
  done
}

# Sends TERM to the process of one pid file if it is still the program named
# (a reused pid belonging to something else is left alone), and notes it in
# `stopping` for wait_stopped.
stopping=()
signal_pidfile() {
  local file="$1" name="$2" pid
  [ -f "$file" ] || return 0
  pid="$(cat "$file" 2>/dev/null || true)"
  rm -f "$file"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 0
  [ "$(cat "/proc/$pid/comm" 2>/dev/null || true)" = "$name" ] || return 0
  kill -TERM "$pid" 2>/dev/null && stopping+=("$pid")
  return 0
}

# Waits up to 10 s for the signalled daemons, then kills what is left.
wait_stopped() {
  local pid alive
  for _ in $(seq 1 100); do
    alive=0
    for pid in "${stopping[@]}"; do
      # A zombie (state Z) has stopped; only its parent can reap it.
      if [ -e "/proc/$pid" ] && ! grep -q '^State:[[:space:]]*Z' "/proc/$pid/status" 2>/dev/null; then alive=1; fi
    done
    [ "$alive" = 0 ] && break
    sleep 0.1
  done
  for pid in "${stopping[@]}"; do
    if [ -e "/proc/$pid" ] && ! grep -q '^State:[[:space:]]*Z' "/proc/$pid/status" 2>/dev/null; then
      kill -KILL "$pid" 2>/dev/null || true
    fi
  done
  stopping=()
}

stop() {
  [ -d "$dir" ] || return 0
  signal_pidfile "$dir/run/slurmd.pid" slurmd
  signal_pidfile "$dir/run/slurmctld.pid" slurmctld
  wait_stopped
  # munge last: the slurm daemons talk through it while they shut down.
  signal_pidfile "$dir/run/munged.pid" munged
  wait_stopped
  rm -rf "$dir"
}

write_config() {
  mkdir -p "$dir"/{run,log,state,spool,munge,jobs}
  chmod 700 "$dir/munge"
  dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
  chmod 400 "$dir/munge/munge.key"
  local cpus
  cpus="$(nproc)"
  cat >"$conf" <<EOF
# Written by packaging/slurm-test-cluster.sh: a private one-node test cluster.
ClusterName=crucible-test
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/state/slurmctld.pid
SlurmdPidFile=$dir/spool/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=1
SlurmdTimeout=30
InactiveLimit=0
KillWait=2
MinJobAge=120
GresTypes=gpu
NodeName=$host CPUs=$cpus Gres=gpu:1 State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
  # One fake GPU: the gres plugin needs a device file, any will do.
  echo "Name=gpu File=/dev/null" >"$dir/gres.conf"
}

node_state() { SLURM_CONF="$conf" sinfo --noheader --nodes="$host" --format=%T 2>/dev/null | head -1 || true; }

start() {
  need munged slurmctld slurmd sinfo
  stop  # safe to run twice: a previous instance of ours goes first
  write_config
  # In the foreground (-F, -D), started here, so the pid files are ours from
  # the first moment: a start that fails half-way still stops all it started.
  # setsid: a Ctrl-C meant for the tests does not hit the daemons mid-test.
  setsid munged -F --force --socket="$dir/munge/munge.socket" --key-file="$dir/munge/munge.key" \
    --pid-file="$dir/munge/munged.pid" --log-file="$dir/log/munged.log" --seed-file="$dir/munge/seed" \
    >>"$dir/log/munged.out" 2>&1 </dev/null &
  echo $! >"$dir/run/munged.pid"
  local i
  for i in $(seq 1 100); do
    [ -S "$dir/munge/munge.socket" ] && break
    sleep 0.05
  done
  [ -S "$dir/munge/munge.socket" ] || { stop; die "munged did not start: $(tail -3 "$dir/log/munged.log" "$dir/log/munged.out" 2>/dev/null)"; }
  setsid slurmctld -D -f "$conf" >>"$dir/log/slurmctld.out" 2>&1 </dev/null &
  echo $! >"$dir/run/slurmctld.pid"
  setsid slurmd -D -f "$conf" >>"$dir/log/slurmd.out" 2>&1 </dev/null &
  echo $! >"$dir/run/slurmd.pid"
  local state="" deadline=$((SECONDS + wait_s))
  while [ "$SECONDS" -lt "$deadline" ]; do
    state="$(node_state)"
    [ "$state" = "idle" ] && return 0
    sleep 0.2
  done
  echo "slurm-test-cluster: node $host is not idle after ${wait_s}s (state: '${state:-unreachable}')" >&2
  tail -n 5 "$dir/log/slurmctld.log" "$dir/log/slurmd.log" "$dir/log/slurmctld.out" "$dir/log/slurmd.out" >&2 2>/dev/null || true
  stop
  exit 1
}

case "${1:-}" in
  start)
    start
    echo "export SLURM_CONF=$conf" ;;
  stop)
    stop ;;
  env)
    [ -f "$conf" ] || die "no cluster is running in $dir"
    echo "export SLURM_CONF=$conf" ;;
  run)
    shift
    [ "$#" -gt 0 ] || die "run needs a command"
    trap stop EXIT
    trap 'exit 130' INT TERM
    start
    status=0
    SLURM_CONF="$conf" CRUCIBLE_SLURM_SHARED="$dir/jobs" "$@" || status=$?
    exit "$status" ;;
  *)
    echo "usage: $0 start|stop|env|run CMD..." >&2
    exit 2 ;;
esac
