# A generic Slurm cluster with Open MPI over UCX, AMD or NVIDIA GPUs; on a
# node without GPUs, the HOST back-end on CPU ranks (to try the scripts).
# shellcheck disable=SC2034 # GCDS_PER_NODE is read by the scripts that source this file
# shellcheck shell=bash
# GPU_VENDOR: amd (ROCm-aware UCX), nvidia (CUDA-aware UCX) or none; by
# default whichever the node running the batch script has.
if [ -z "${GPU_VENDOR:-}" ]; then
  if [ -e /dev/kfd ]; then
    GPU_VENDOR=amd
  elif nvidia-smi -L >/dev/null 2>&1; then
    GPU_VENDOR=nvidia
  else
    GPU_VENDOR=none
  fi
fi
# The build of the README's layout for that vendor, unless APP is set.
# The UCX environment of a GPU run, one reason a variable (jobscripts/
# README.md, "Open MPI with UCX", has the pitfalls and what was measured);
# each one the environment already sets is kept.
#   OMPI_MCA_pml=ucx     GPU buffers between nodes go through UCX; named,
#                        so that a UCX that cannot start stops the job
#                        instead of Open MPI falling back to ob1 quietly.
#   OMPI_MCA_pml_ucx_tls=any, OMPI_MCA_pml_ucx_devices=any
#                        pml ucx otherwise enables itself only where UCX
#                        sees an InfiniBand (mlx*) device or GPU IPC: on a
#                        node with neither, the named pml would not open.
#   UCX_TLS              the GPU's copy and IPC transports beside the network
#                        (rc) and shared memory: without rocm_ipc or
#                        cuda_ipc, two GPUs of one node stage through host
#                        memory.
#   UCX_RNDV_SCHEME      left to UCX (auto): get_zcopy costs nothing across
#                        NVLink (two H200s) but failed with rocm_ipc on
#                        MI250X under ROCm 6.2 (openucx/ucx#10087).
#   UCX_RNDV_THRESH      left to UCX: 1m sent 64^3-128^3 faces through host
#                        bounce buffers, 19-49x slower on two H200s; 8k
#                        changed nothing beyond the spread.
#   UCX_MEMTYPE_CACHE    left to UCX: n cost 15-24% per exchange.
ucx_environment() { # ucx_environment GPU_TRANSPORTS
  export OMPI_MCA_pml=${OMPI_MCA_pml:-ucx}
  export OMPI_MCA_pml_ucx_tls=${OMPI_MCA_pml_ucx_tls:-any} OMPI_MCA_pml_ucx_devices=${OMPI_MCA_pml_ucx_devices:-any}
  export UCX_TLS=${UCX_TLS:-rc,sm,self,$1}
}
case "$GPU_VENDOR" in
  amd)
    : "${APP:=build-hip/miniapp/stencil-miniapp}"
    ucx_environment rocm_copy,rocm_ipc
    : "${GPUS_PER_NODE:=8}" ;;
  nvidia)
    : "${APP:=build-cuda/miniapp/stencil-miniapp}"
    ucx_environment cuda_copy,cuda_ipc,gdr_copy
    : "${GPUS_PER_NODE:=8}" ;;
  none)
    : "${APP:=build/miniapp/stencil-miniapp}"
    # One rank per task Slurm gave the node (--ntasks-per-node), each on one
    # core: the HOST back-end's OpenMP threads would otherwise share them.
    : "${GPUS_PER_NODE:=${SLURM_NTASKS_PER_NODE:-${SLURM_CPUS_ON_NODE:-1}}}"
    export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1} OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
    # Under srun, Open MPI cannot tell that the node may have fewer cores
    # than ranks, and would busy-poll.
    export OMPI_MCA_mpi_yield_when_idle=${OMPI_MCA_mpi_yield_when_idle:-1}
    echo "stencil: no GPU on $(hostname): the HOST back-end ($APP), $GPUS_PER_NODE ranks per node" ;;
  *) echo "GPU_VENDOR must be amd, nvidia or none" >&2; exit 2 ;;
esac
GCDS_PER_NODE=$GPUS_PER_NODE # ranks per node; read by the job scripts that source this file
# Every rank sees every GPU of its node (GPU IPC needs that) and picks the
# one of its node-local rank itself.
launch() {
  local ranks=$1 gpus=()
  shift
  [ "$GPU_VENDOR" = none ] || gpus=(--gpus-per-node="$GPUS_PER_NODE")
  srun --mpi=pmix -N"$(((ranks + GPUS_PER_NODE - 1) / GPUS_PER_NODE))" -n"$ranks" \
    --ntasks-per-node="$((ranks < GPUS_PER_NODE ? ranks : GPUS_PER_NODE))" "${gpus[@]}" "$@"
}
