#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for trying the job scripts before
# a queue wait: munged, slurmctld and slurmd as root, no systemd, the
# configuration and state under one folder.
#
# usage: tools/local-slurm.sh start|stop|status
#   start   installs the packages, writes the configuration, starts the three
#           daemons and waits until the node is idle; then point the Slurm
#           commands at it:  export SLURM_CONF=$STENCIL_SLURM_DIR/slurm.conf
#   stop    stops the daemons and removes the folder
#
# STENCIL_SLURM_DIR (default /tmp/stencil-slurm) holds everything.
# STENCIL_SLURM_CPUS (default 64) and STENCIL_SLURM_GPUS (default 8) are the
# node shape Slurm is told about, whatever the machine has
# (SlurmdParameters=config_overrides): 64 cores and 8 GPUs is one node of
# Frontier or LUMI-G. The GPUs are empty files standing in for devices, so
# the GPU options of sbatch and srun can be checked; nothing can use them.
# Partitions: debug (the default), batch (Frontier's name) and standard-g
# (LUMI's), all on this node.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${STENCIL_SLURM_DIR:-/tmp/stencil-slurm}
cpus=${STENCIL_SLURM_CPUS:-64} gpus=${STENCIL_SLURM_GPUS:-8}
host=$(hostname -s)
sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo)

stop() {
  for pidfile in "$dir/slurmd.pid" "$dir/slurmctld.pid" "$dir/munged.pid"; do
    [ -f "$pidfile" ] || continue
    "${sudo[@]}" kill "$(cat "$pidfile")" 2>/dev/null || true
  done
  for _ in $(seq 50); do
    pgrep -f "$dir/slurm.conf" >/dev/null || break
    sleep 0.1
  done
  "${sudo[@]}" pkill -9 -f "$dir/slurm.conf" 2>/dev/null || true
  [ ! -f "$dir/munged.pid" ] || "${sudo[@]}" pkill -9 -F "$dir/munged.pid" 2>/dev/null || true
  "${sudo[@]}" rm -rf "$dir"
}

write_config() {
  mkdir -p "$dir/state" "$dir/spool" "$dir/dev" "$dir/tmp"
  local gres="" files
  if [ "$gpus" -gt 0 ]; then
    gres="Gres=gpu:$gpus"
    # Character devices where we may make them (they are /dev/null), else
    # plain files, which slurmd accepts with a complaint in its log.
    for ((g = 0; g < gpus; g++)); do
      "${sudo[@]}" mknod "$dir/dev/gpu$g" c 1 3 2>/dev/null || : >"$dir/dev/gpu$g"
    done
    files="$dir/dev/gpu[0-$((gpus - 1))]"
    echo "NodeName=$host,${host}-twin[1-3] Name=gpu File=$files" >"$dir/gres.conf"
  else
    : >"$dir/gres.conf"
  fi
  cat >"$dir/slurm.conf" <<EOF
# A one-node cluster for trying job scripts (tools/local-slurm.sh).
ClusterName=stencil-local
SlurmctldHost=$host
SlurmctldPort=${STENCIL_SLURMCTLD_PORT:-6917}
SlurmdPort=${STENCIL_SLURMD_PORT:-6918}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
# The steps' scratch too (srun --mpi=pmix makes spmix_appdir_UID_JOB.STEP
# there): a job killed with an earlier cluster leaves its folder behind, and
# a new cluster counts job ids from 1 again, so a later job of the same id
# would fail to launch ("task 0 launch failed: Unspecified error").
TmpFS=$dir/tmp
ProctrackType=proctrack/linuxproc
TaskPlugin=task/affinity
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SlurmdParameters=config_overrides
GresTypes=gpu
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MinJobAge=3600
# The stand-in nodes below never answer; 0 keeps them from being marked DOWN,
# so --test-only can use them for as long as the cluster runs.
SlurmdTimeout=0
NodeName=$host CPUs=$cpus Boards=1 SocketsPerBoard=1 CoresPerSocket=$cpus ThreadsPerCore=1 RealMemory=1000 $gres State=UNKNOWN
# Three more nodes of the same shape that never start: sbatch/srun --test-only
# can then check multi-node requests. Only the debug partition runs jobs for
# real; a job sent to batch or standard-g could land on a stand-in and hang.
NodeName=${host}-twin[1-3] NodeAddr=127.0.0.1 Port=6999 CPUs=$cpus Boards=1 SocketsPerBoard=1 CoresPerSocket=$cpus ThreadsPerCore=1 RealMemory=1000 $gres State=IDLE
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
PartitionName=batch Nodes=$host,${host}-twin[1-3] MaxTime=INFINITE State=UP
PartitionName=standard-g Nodes=$host,${host}-twin[1-3] MaxTime=INFINITE State=UP
EOF
}

start_munge() {
  if [ ! -s /etc/munge/munge.key ]; then
    "${sudo[@]}" mkdir -p /etc/munge
    "${sudo[@]}" sh -c 'dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key 2>/dev/null'
  fi
  # munged runs as its own user where the package made one, else as root.
  local user=root
  id munge >/dev/null 2>&1 && user=munge
  "${sudo[@]}" chown "$user" /etc/munge/munge.key
  "${sudo[@]}" chmod 400 /etc/munge/munge.key
  "${sudo[@]}" mkdir -p /run/munge /var/lib/munge /var/log/munge
  "${sudo[@]}" chown "$user" /run/munge /var/lib/munge /var/log/munge
  if munge -n </dev/null >/dev/null 2>&1; then return; fi # one is running already
  if [ "$user" = munge ]; then
    "${sudo[@]}" runuser -u munge -- /usr/sbin/munged --pid-file=/run/munge/stencil-munged.pid
    "${sudo[@]}" cp /run/munge/stencil-munged.pid "$dir/munged.pid"
  else
    "${sudo[@]}" /usr/sbin/munged --force --pid-file="$dir/munged.pid"
  fi
  for _ in $(seq 50); do munge -n </dev/null >/dev/null 2>&1 && return; sleep 0.1; done
  echo "local-slurm: munged did not start" >&2
  return 1
}

start() {
  tools/install-deps.sh slurm
  stop
  mkdir -p "$dir"
  write_config
  start_munge
  export SLURM_CONF=$dir/slurm.conf
  "${sudo[@]}" /usr/sbin/slurmctld -f "$SLURM_CONF"
  "${sudo[@]}" /usr/sbin/slurmd -f "$SLURM_CONF"
  local state=""
  for _ in $(seq 150); do
    state=$(sinfo -h -n "$host" -o %T 2>/dev/null | head -1)
    [ "$state" = idle ] && break
    sleep 0.2
  done
  if [ "$state" != idle ]; then
    echo "local-slurm: the node is '${state:-not registered}', not idle; logs in $dir" >&2
    tail -5 "$dir/slurmctld.log" "$dir/slurmd.log" >&2 || true
    return 1
  fi
  echo "local-slurm: one node ($host, $cpus CPUs, $gpus GPUs declared) is idle"
  echo "export SLURM_CONF=$SLURM_CONF"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) SLURM_CONF=$dir/slurm.conf sinfo ;;
  *) echo "usage: tools/local-slurm.sh start|stop|status" >&2; exit 2 ;;
esac
