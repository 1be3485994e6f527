# --comm peer on the HOST back-end: the ranks' fields in one MPI
# shared-memory window per node, the step counts polled in host memory, so
# the stores into neighbours' halos, the counts and the schedule run between
# real processes on every commit. Bit for bit against one domain: periodic
# and open, R = 1..8, both precisions, uneven splits, the source on a face;
# faces forced onto MPI by blocks of ranks per "node" (STENCIL_NODE_RANKS),
# with overlap on and off; and each planted bug caught.
foreach(run "2;2,1,1;x,y,z;1;fp32" "2;1,1,2;;4;fp64" "3;3,1,1;x;8;fp32" "4;2,2,1;x,y,z;5;fp64"
            "4;1,2,2;;3;fp32" "6;3,2,1;y;2;fp64" "8;2,2,2;x,y,z;7;fp32" "8;2,2,2;;6;fp64")
  list(POP_FRONT run ranks procs periodic radius precision)
  string(REPLACE "," "x" tag "${procs}")
  set(wrap)
  if(periodic)
    set(wrap --periodic ${periodic})
  endif()
  stencil_mpi_test(peer_check_np${ranks}_${tag}_R${radius}_${precision} ${ranks} --grid 61,47,53
                   --procs ${procs} ${wrap} --radius ${radius} --precision ${precision} --comm peer
                   --steps 12 --warmup 2 --check --quiet)
endforeach()
stencil_mpi_test(peer_check_source_on_face_np4 4 --grid 40,36,44 --procs 2,2,1 --periodic x,y,z
                 --source 19,17,21 --comm peer --check --quiet)
# Two "nodes" of two ranks: x faces by MPI, y faces by peer (overlap on: the
# slabs only at the x faces; off: one whole-box update after the messages);
# one rank per "node": every face by MPI through the same exchange.
foreach(overlap on off)
  stencil_mpi_test(peer_check_hybrid_overlap_${overlap}_np4 4 --grid 61,47,53 --procs 2,2,1
                   --periodic x,y,z --comm peer --overlap ${overlap} --check)
  stencil_mpi_env(peer_check_hybrid_overlap_${overlap}_np4 STENCIL_NODE_RANKS=2)
  set_tests_properties(peer_check_hybrid_overlap_${overlap}_np4 PROPERTIES PASS_REGULAR_EXPRESSION
                       "bitwise equal.*rank 0's faces: -z self, -y peer, -x gpu-aware, \\+x gpu-aware, \\+y peer, \\+z self")
endforeach()
stencil_mpi_test(peer_check_all_by_mpi_np3 3 --grid 61,47,53 --procs 3,1,1 --periodic x --comm peer
                 --check --quiet)
stencil_mpi_env(peer_check_all_by_mpi_np3 STENCIL_NODE_RANKS=1)
# Every face on the node: one update a step, and the report says so.
stencil_mpi_test(peer_one_kernel_reported 4 --grid 61,47,53 --procs 2,2,1 --periodic x,y,z
                 --comm peer --steps 4)
set_tests_properties(peer_one_kernel_reported PROPERTIES PASS_REGULAR_EXPRESSION
                     "overlap off \\(one kernel a step: every face is a rank's own or linked on its node")
# The planted bugs: the wait skipped, the count raised before the faces are
# stored (both with the other ranks' stores held back), a face stored into
# the wrong neighbour's halo; and a dropped face.
foreach(fault peer-skip-wait peer-early-signal)
  stencil_mpi_test(peer_catches_${fault} 2 WILL_FAIL --grid 40,36,44 --procs 2,1,1 --periodic x
                   --comm peer --steps 8 --inject-fault ${fault} --check --quiet)
endforeach()
stencil_mpi_test(peer_catches_peer-wrong-face 3 WILL_FAIL --grid 40,36,44 --procs 3,1,1 --periodic x
                 --comm peer --inject-fault peer-wrong-face --check --quiet)
# A linked face stored into the time level its neighbour still reads.
stencil_mpi_test(peer_catches_peer-wrong-level 2 WILL_FAIL --grid 40,36,44 --procs 2,1,1 --comm peer
                 --inject-fault peer-wrong-level --check --quiet)
stencil_mpi_test(peer_catches_dropped_face 2 WILL_FAIL --grid 40,36,44 --procs 2,1,1 --comm peer
                 --inject-fault drop-face --check --quiet)
# Refusals before step 1: the update stores the faces every step.
foreach(bad "--pack;separate" "--halo-depth;2")
  list(GET bad 0 option)
  string(REPLACE "--" "" tag "${option}")
  stencil_mpi_failure(peer_refuses_${tag} 2 30
                      "--comm peer stores the faces from the update kernels, every step.*${option}"
                      --grid 40,36,44 --comm peer ${bad})
endforeach()
# A planted fault that plants nothing says so; a bad STENCIL_NODE_RANKS is refused before step 1.
stencil_mpi_test(peer_unplanted_wrong_face_warns 4 --grid 61,47,53 --steps 4 --comm peer
                 --inject-fault peer-wrong-face)
set_tests_properties(peer_unplanted_wrong_face_warns PROPERTIES PASS_REGULAR_EXPRESSION
                     "warning: --inject-fault peer-wrong-face plants nothing")
stencil_mpi_failure(peer_refuses_bad_node_ranks 2 30 "STENCIL_NODE_RANKS='2x' is not a whole number"
                    --grid 40,36,44 --comm peer)
stencil_mpi_env(peer_refuses_bad_node_ranks STENCIL_NODE_RANKS=2x)
# A planted NaN ends a peer run in bounded time, unstable at step 4: the
# priming after it is collective (it waited for ever on every rank but the
# cell's owner).
stencil_mpi_failure(peer_nan_stops_unstable 2 30 "unstable: NaN or Inf in the field at step 4"
                    --grid 36,36,36 --radius 2 --steps 12 --comm peer --inject-fault nan)
# A fault the run cannot plant says so: peer runs at halo depth 1, so no ring.
stencil_mpi_test(peer_unplanted_short_ring_warns 2 --grid 36,36,36 --radius 2 --steps 4 --comm peer
                 --inject-fault short-ring)
set_tests_properties(peer_unplanted_short_ring_warns PROPERTIES PASS_REGULAR_EXPRESSION
                     "warning: --inject-fault short-ring plants nothing")
# The peer races beside messages (two ranks a node, four ranks): the step's
# wait for the messages may order the linked writes, and the run says a
# pass proves little there.
stencil_mpi_test(peer_races_beside_messages_warn 4 --grid 32,32,36 --radius 2 --steps 4 --comm peer
                 --procs 1,2,2 --inject-fault peer-skip-wait)
stencil_mpi_env(peer_races_beside_messages_warn STENCIL_NODE_RANKS=2)
set_tests_properties(peer_races_beside_messages_warn PROPERTIES PASS_REGULAR_EXPRESSION
                     "peer-skip-wait and peer-early-signal plant races that a step's wait for messages may hide")
