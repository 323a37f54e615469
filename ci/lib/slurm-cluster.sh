# shellcheck shell=bash
# Sourced: a one-node Slurm cluster on this machine, for tests of polydev's Slurm recipe.
#
#   slurm_cluster_start DIR TASKS   writes DIR/etc/slurm.conf for this host (TASKS CPUs, so that a
#                                   job of TASKS tasks runs on a smaller machine), starts munged,
#                                   slurmctld and slurmd with their state, logs and pid files under
#                                   DIR, waits until the node is idle and exports SLURM_CONF
#   slurm_cluster_stop DIR          stops exactly those daemons (by their pid files), whatever state
#                                   they are in; safe to call twice, or when start failed midway;
#                                   fails when one of them is still running after SIGKILL
#
# Needs root (munged runs as the munge user) and Debian's slurmctld, slurmd, slurm-client and munge.
# No systemd: the daemons fork themselves.

slurm_cluster_start() {
  local dir=$1 tasks=$2 node cpus
  node=$(hostname -s)
  cpus=$(($(nproc) < tasks ? tasks : $(nproc)))
  mkdir -p "$dir"/{etc,state,spool,log,run}
  export SLURM_CONF=$dir/etc/slurm.conf
  cat >"$SLURM_CONF" <<CONF
ClusterName=polydev
SlurmctldHost=$node(127.0.0.1)
SlurmUser=root
AuthType=auth/munge
CredType=cred/munge
MpiDefault=none
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmdParameters=config_overrides
ReturnToService=2
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=ci Nodes=ALL Default=YES MaxTime=30 State=UP
CONF
  [[ -s /etc/munge/munge.key ]] || runuser -u munge -- /usr/sbin/mungekey --create
  install -d -o munge -g munge -m 0755 /run/munge
  # An earlier munged (of a run that was killed) keeps the socket: start one only when none answers.
  if ! munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1; then
    runuser -u munge -- /usr/sbin/munged
    cp /run/munge/munged.pid "$dir/run/munged.pid"
  fi
  for _ in $(seq 50); do
    munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1 && break
    sleep 0.1
  done
  /usr/sbin/slurmctld
  for _ in $(seq 100); do
    scontrol ping >/dev/null 2>&1 && break
    sleep 0.2
  done
  /usr/sbin/slurmd
  for _ in $(seq 150); do
    [[ "$(sinfo -h -n "$node" -o %T 2>/dev/null)" == idle ]] && return 0
    sleep 0.2
  done
  echo "slurm_cluster_start: the node $node is not idle after 30 s:" >&2
  sinfo -N -l >&2 || true
  tail -n 20 "$dir/log/slurmctld.log" "$dir/log/slurmd.log" >&2 || true
  return 1
}

slurm_cluster_stop() {
  local dir=$1 name pid left=0
  for name in slurmd slurmctld munged; do
    [[ -s "$dir/run/$name.pid" ]] || continue
    pid=$(cat "$dir/run/$name.pid")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 100); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then
      kill -9 "$pid" 2>/dev/null || true
      sleep 0.2
      # (A zombie waits for its parent; it runs nothing.)
      if kill -0 "$pid" 2>/dev/null && [[ "$(ps -o stat= -p "$pid")" != Z* ]]; then
        echo "slurm_cluster_stop: $name ($pid) is still running" >&2
        left=1
      fi
    fi
    rm -f "$dir/run/$name.pid"
  done
  # A step that outlived its slurmd (slurmstepd) is ended too: nothing of the cluster stays.
  pkill -f "slurmstepd: \[" 2>/dev/null || true
  return "$left"
}
