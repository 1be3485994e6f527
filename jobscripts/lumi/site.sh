# LUMI-G (CSC): 8 GCDs (4 MI250X) per node, Cray MPICH with GPU support.
# shellcheck disable=SC2034 # GCDS_PER_NODE is read by the scripts that source this file
# shellcheck shell=bash
module load LUMI partition/G rocm
export MPICH_GPU_SUPPORT_ENABLED=1
GCDS_PER_NODE=8 # read by the job scripts that source this file
# --gpu-bind=closest breaks intra-node GPU IPC on LUMI: every rank sees all
# GCDs through --gpus-per-node and select_gpu.sh narrows it to one
# (ROCR_VISIBLE_DEVICES=SLURM_LOCALID); the CPU map puts each rank on the
# cores nearest its GCD.
launch() {
  local ranks=$1
  shift
  srun -N"$(((ranks + GCDS_PER_NODE - 1) / GCDS_PER_NODE))" -n"$ranks" --ntasks-per-node="$((ranks < GCDS_PER_NODE ? ranks : GCDS_PER_NODE))" \
    --gpus-per-node=8 --cpu-bind=map_cpu:49,57,17,25,1,9,33,41 "$(dirname "${BASH_SOURCE[0]}")/select_gpu.sh" "$@"
}
