# Issue 70: what a computing centre needs to install the mini-app and read
# its files with the field's tools. Included from tests/CMakeLists.txt.

# Every program and Python tool says its version: the project's and the
# revision it was built from, in one line, exit 0.
set(_version_regex "^[a-z.-]+ [0-9]+\\.[0-9]+\\.[0-9]+ \\(revision [^)\n]+\\)\n$")
set(_programs stencil-miniapp stencil-halo-bench)
if(STENCIL_BUILD_BENCH)
  list(APPEND _programs stencil-bench)
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
