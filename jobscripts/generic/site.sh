# A generic Slurm cluster with Open MPI over UCX, AMD or NVIDIA GPUs.
# shellcheck disable=SC2034 # GCDS_PER_NODE is read by the scripts that source this file
# shellcheck shell=bash
: "${GPU_VENDOR:=amd}"      # amd: ROCm-aware UCX; nvidia: CUDA-aware UCX
: "${GPUS_PER_NODE:=8}"
export OMPI_MCA_pml=ucx      # the same as mpirun --mca pml ucx
case "$GPU_VENDOR" in
  amd) export UCX_TLS=${UCX_TLS:-rc,sm,self,rocm_copy,rocm_ipc} ;;
  nvidia) export UCX_TLS=${UCX_TLS:-rc,sm,self,cuda_copy,cuda_ipc,gdr_copy} ;;
  *) echo "GPU_VENDOR must be amd or nvidia" >&2; exit 2 ;;
esac
GCDS_PER_NODE=$GPUS_PER_NODE # read by the job scripts that source this file
# Every rank sees every GPU of its node (GPU IPC needs that) and picks the
# one of its node-local rank itself.
launch() {
  local ranks=$1
  shift
  srun --mpi=pmix -N"$(((ranks + GPUS_PER_NODE - 1) / GPUS_PER_NODE))" -n"$ranks" \
    --ntasks-per-node="$((ranks < GPUS_PER_NODE ? ranks : GPUS_PER_NODE))" --gpus-per-node="$GPUS_PER_NODE" "$@"
}
