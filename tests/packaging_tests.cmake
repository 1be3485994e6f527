# Issue 70: what a computing centre needs to install the mini-app and read
# its files with the field's tools. Included from tests/CMakeLists.txt.

# Every program and Python tool says its version: the project's and the
# revision it was built from, in one line, exit 0.
set(_version_regex "^[a-z.-]+ [0-9]+\\.[0-9]+\\.[0-9]+ \\(revision [^)\n]+\\)\n$")
# The benchmarks exist only where they are built (MPICH's CI build has none).
set(_programs stencil-miniapp)
if(STENCIL_BUILD_BENCH)
  list(APPEND _programs stencil-bench stencil-halo-bench)
endif()
foreach(program ${_programs})
  add_test(NAME version_${program} COMMAND $<TARGET_FILE:${program}> --version)
  set_tests_properties(version_${program} PROPERTIES ENVIRONMENT "${STENCIL_MPI_TEST_ENV}"
                       PASS_REGULAR_EXPRESSION "${_version_regex}")
endforeach()
if(Python3_FOUND)
  foreach(tool tools/verify-output.py tools/report-table.py tools/make-model.py tools/timeline-svg.py
               jobscripts/collect.py jobscripts/project.py)
    get_filename_component(_name ${tool} NAME_WE)
    add_test(NAME version_${_name}_py COMMAND ${STENCIL_TOOLS_PYTHON} ${PROJECT_SOURCE_DIR}/${tool} --version)
    set_tests_properties(version_${_name}_py PROPERTIES PASS_REGULAR_EXPRESSION "${_version_regex}")
  endforeach()
endif()

# The files the field's tools read: SEG-Y traces and XDMF snapshots, checked
# by tools/verify-output.py with planted faults (the standard library only),
# and by the clients themselves (segyio, ParaView, the Python reader),
# each skipped, saying so, where it is not installed.
stencil_script_test(formats_checked_by_verify formats_test.sh 180)
set_tests_properties(formats_checked_by_verify PROPERTIES PASS_REGULAR_EXPRESSION "every planted fault was caught")
foreach(client segyio paraview reader)
  add_test(NAME formats_read_by_${client}
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/format_clients_test.sh ${client} ${MPIEXEC_EXECUTABLE}
                   ${MPIEXEC_NUMPROC_FLAG} $<TARGET_FILE:stencil-miniapp>
                   ${CMAKE_CURRENT_BINARY_DIR}/formats_read_by_${client} ${MPIEXEC_PREFLAGS})
  set_tests_properties(formats_read_by_${client} PROPERTIES ENVIRONMENT "${STENCIL_MPI_TEST_ENV}"
                       TIMEOUT 240 LABELS mpi SKIP_RETURN_CODE 77)
endforeach()
# --trace-format: a SEG-Y that cannot hold the run is refused before step 1
# in one line; a bad value too; with no receivers, a warning.
stencil_mpi_failure(bad_trace_format_too_many_steps 2 20
                    "--trace-format segy: 40000 steps and t = 0 are more samples than SEG-Y rev 1 holds"
                    --grid 16,16,16 --steps 40000 --receiver-line z=2 --trace-format segy)
stencil_mpi_failure(bad_trace_format_value 2 20 "--trace-format: 'sgy' is not raw, segy or both"
                    --grid 16,16,16 --trace-format sgy)
stencil_mpi_test(warns_trace_format_without_receivers 2 --grid 16,16,16 --steps 2 --trace-format both)
set_tests_properties(warns_trace_format_without_receivers PROPERTIES PASS_REGULAR_EXPRESSION
                     "warning: --trace-format both with no receivers .*: no trace is recorded")

# --output-format hdf5: the same run raw and as HDF5 on 2 and 3 ranks over
# uneven splits, read by h5py, the reader, verify-output and ParaView, bit
# for bit the raw snapshots; planted faults caught (tests/hdf5_snapshots_test.sh,
# hdf5_planted_faults.sh). Skipped, saying why, without HDF5 or h5py.
set(_have_hdf5 OFF)
if(STENCIL_HDF5_FOUND)
  set(_have_hdf5 ON)
endif()
foreach(ranks 2 3)
  add_test(NAME output_format_hdf5_np${ranks}
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/hdf5_snapshots_test.sh ${_have_hdf5} ${ranks}
                   ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} $<TARGET_FILE:stencil-miniapp>
                   ${CMAKE_CURRENT_BINARY_DIR}/output_format_hdf5_np${ranks} ${MPIEXEC_PREFLAGS})
  set_tests_properties(output_format_hdf5_np${ranks} PROPERTIES ENVIRONMENT "${STENCIL_MPI_TEST_ENV}"
                       TIMEOUT 240 LABELS mpi SKIP_RETURN_CODE 77)
endforeach()
set_tests_properties(output_format_hdf5_np2 PROPERTIES PASS_REGULAR_EXPRESSION "every planted fault was caught")
stencil_mpi_failure(bad_output_format_value 2 20 "--output-format: 'h5' is not raw or hdf5"
                    --grid 16,16,16 --output-format h5)
if(STENCIL_HDF5_FOUND)
  stencil_mpi_test(warns_output_format_without_snapshots 2 --grid 16,16,16 --steps 2 --output-format hdf5)
  set_tests_properties(warns_output_format_without_snapshots PROPERTIES PASS_REGULAR_EXPRESSION
                       "warning: --output-format hdf5 with no --snapshot-every: no snapshot is written")
  # A restart continues the snapshots in the format they began in (tests/restart_test.sh).
  set_property(TEST restart_equals_uninterrupted APPEND PROPERTY ENVIRONMENT STENCIL_TEST_HDF5=1)
else()
  stencil_mpi_failure(bad_output_format_without_hdf5 2 20
                      "--output-format hdf5: this build has no parallel HDF5 \\(install libhdf5-openmpi-dev"
                      --grid 16,16,16 --snapshot-every 1 --output-format hdf5
                      --output ${CMAKE_CURRENT_BINARY_DIR}/no_hdf5)
endif()

# cmake --install into a prefix with a space, then a short job, the tools
# and a study from the prefix alone (tests/install_test.sh).
add_test(NAME install_runs_from_prefix
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/install_test.sh ${PROJECT_BINARY_DIR} ${MPIEXEC_EXECUTABLE})
set_tests_properties(install_runs_from_prefix PROPERTIES TIMEOUT 300 LABELS mpi
                     PASS_REGULAR_EXPRESSION "run from the prefix alone")

# The Spack recipe's variants and the CMake options they set exist on both
# sides, and a rename on either side is caught (tests/spack_recipe_test.sh).
if(Python3_FOUND)
  add_test(NAME spack_recipe_matches_cmake
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/spack_recipe_test.sh ${CMAKE_CURRENT_BINARY_DIR}/spack_recipe)
  set_tests_properties(spack_recipe_matches_cmake PROPERTIES ENVIRONMENT "PYTHON=${Python3_EXECUTABLE}"
                       PASS_REGULAR_EXPRESSION "every planted rename was caught")
endif()
