#!/usr/bin/env bash
# LUMI: give each rank the one GCD of its node-local rank, then run the program.
export ROCR_VISIBLE_DEVICES=$SLURM_LOCALID
exec "$@"
