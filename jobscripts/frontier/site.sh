# Frontier (OLCF): 8 GCDs (4 MI250X) per node, Cray MPICH with GPU support.
# shellcheck disable=SC2034 # GCDS_PER_NODE is read by the scripts that source this file
# shellcheck shell=bash
module load PrgEnv-cray craype-accel-amd-gfx90a rocm
export MPICH_GPU_SUPPORT_ENABLED=1 # device pointers straight to Cray MPICH (GTL)
GCDS_PER_NODE=8 # read by the job scripts that source this file
# One rank per GCD, 7 cores each, each rank bound to the GCD closest to its cores.
launch() {
  local ranks=$1
  shift
  srun -N"$(((ranks + GCDS_PER_NODE - 1) / GCDS_PER_NODE))" -n"$ranks" -c7 --gpus-per-task=1 --gpu-bind=closest "$@"
}
