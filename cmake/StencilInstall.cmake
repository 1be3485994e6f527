# cmake --install: what a computing centre installs (GNUInstallDirs).
#
#   bin/                           stencil-miniapp, stencil-halo-bench, stencil-bench, and the
#                                  user tools by name (stencil-verify-output, ...), links into share/
#   share/stencil-miniapp/tools/   the Python tools and the modules they share, and VERSION
#   share/stencil-miniapp/jobscripts/  the job scripts, made to name the installed programs
#   share/doc/stencil-miniapp/     README.md, LICENSE, CHANGELOG.md, and docs/ but for docs/data
#   STENCIL_PYTHON_INSTALL_DIR     the Python package stencil_miniapp
#
# Nothing installed names the source tree or the build folder: the install
# test (tests/install_test.sh) runs a job and the tools from the prefix alone.
include(GNUInstallDirs)

# Pure Python, so one folder serves every interpreter of that version; Spack
# passes its own (python_purelib), and PYTHONPATH names it otherwise.
set(_python_dir "${CMAKE_INSTALL_LIBDIR}/python3/site-packages")
find_package(Python3 COMPONENTS Interpreter QUIET)
if(Python3_FOUND)
  set(_python_dir "${CMAKE_INSTALL_LIBDIR}/python${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR}/site-packages")
endif()
set(STENCIL_PYTHON_INSTALL_DIR "${_python_dir}" CACHE STRING
    "where cmake --install puts the Python package stencil_miniapp (relative: under the prefix)")

set(_share "${CMAKE_INSTALL_DATADIR}/stencil-miniapp")
# The prefix is checked before any file is installed: a refused one must
# not leave half an installation (cmake/InstallPrefix.cmake).
install(CODE "
  set(STENCIL_INSTALL_BINDIR \"${CMAKE_INSTALL_BINDIR}\")
  set(STENCIL_INSTALL_SHAREDIR \"${_share}\")
  include(\"${PROJECT_SOURCE_DIR}/cmake/InstallPrefix.cmake\")")
set(_programs "")
foreach(program stencil-miniapp stencil-halo-bench stencil-bench)
  if(TARGET ${program})
    list(APPEND _programs ${program})
  endif()
endforeach()
if(_programs)
  install(TARGETS ${_programs} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

# The tools users run, and the modules they import (tools/README.md, "For users").
install(PROGRAMS tools/verify-output.py tools/report-table.py tools/make-model.py tools/timeline-svg.py
        DESTINATION ${_share}/tools)
install(FILES tools/format_checks.py tools/output_record.py tools/stencil_version.py tools/tool_errors.py tools/text_table.py
              tools/table_bench.py tools/table_miniapp.py tools/table_node.py tools/table_peer.py
              tools/table_timing.py tools/table_ucx.py
        DESTINATION ${_share}/tools)
file(WRITE ${PROJECT_BINARY_DIR}/install/VERSION "${STENCIL_VERSION_STRING}\n")
install(FILES ${PROJECT_BINARY_DIR}/install/VERSION DESTINATION ${_share})

# The job scripts: the Python and data files as they are, the shell scripts
# rewritten at install time to name the installed programs and scripts
# (cmake/InstallJobscripts.cmake), since a batch script runs from Slurm's
# copy of itself and cannot find its folder.
install(DIRECTORY jobscripts/ DESTINATION ${_share}/jobscripts
        FILES_MATCHING PATTERN "*.py" PATTERN "*.json" PATTERN "*.md" PATTERN "__pycache__" EXCLUDE
        PATTERN "collect.py" EXCLUDE PATTERN "project.py" EXCLUDE)
install(PROGRAMS jobscripts/collect.py jobscripts/project.py DESTINATION ${_share}/jobscripts)
install(CODE "
  set(STENCIL_JOBSCRIPTS_SOURCE \"${PROJECT_SOURCE_DIR}/jobscripts\")
  set(STENCIL_JOBSCRIPTS_STAGING \"${PROJECT_BINARY_DIR}/install/jobscripts\")
  set(STENCIL_INSTALL_BINDIR \"${CMAKE_INSTALL_BINDIR}\")
  set(STENCIL_INSTALL_SHAREDIR \"${_share}\")
  include(\"${PROJECT_SOURCE_DIR}/cmake/InstallJobscripts.cmake\")")

# The user tools by name on PATH: relative links, so a prefix moved whole
# still works (the tools take their folder from realpath).
file(RELATIVE_PATH _to_share "${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}"
     "${CMAKE_INSTALL_PREFIX}/${_share}")
foreach(link "verify-output:tools/verify-output.py" "report-table:tools/report-table.py"
             "make-model:tools/make-model.py" "timeline-svg:tools/timeline-svg.py"
             "collect:jobscripts/collect.py" "project:jobscripts/project.py")
  string(REPLACE ":" ";" link "${link}")
  list(GET link 0 _name)
  list(GET link 1 _target)
  install(CODE "
    set(_link \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/stencil-${_name}\")
    message(STATUS \"Installing: \${_link} -> ${_to_share}/${_target}\")
    file(CREATE_LINK \"${_to_share}/${_target}\" \"\${_link}\" SYMBOLIC)")
endforeach()

# The docs, with the images they show, where README's links find them: all
# of docs/ but docs/data, the measurements' raw records (in the source tree).
install(FILES README.md LICENSE CHANGELOG.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs PATTERN "data" EXCLUDE)

# The Python reader, and its version as the programs print it.
install(DIRECTORY python/stencil_miniapp DESTINATION ${STENCIL_PYTHON_INSTALL_DIR}
        FILES_MATCHING PATTERN "*.py" PATTERN "__pycache__" EXCLUDE)
file(WRITE ${PROJECT_BINARY_DIR}/install/_version.py
     "# Written by cmake --install (cmake/StencilInstall.cmake).\nVERSION = \"${STENCIL_VERSION_STRING}\"\n")
install(FILES ${PROJECT_BINARY_DIR}/install/_version.py DESTINATION ${STENCIL_PYTHON_INSTALL_DIR}/stencil_miniapp)
