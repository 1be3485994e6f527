# The version every program, tool and report names: the project's version
# (CMakeLists.txt) and the revision of the source tree it was built from.
#
# The revision is STENCIL_REVISION where given (a tree unpacked from an
# archive, such as the scripts' --against builds, or a Spack build from a
# release tarball), else git describe of this source tree, but only where it
# is a checkout's top: a tree unpacked inside another checkout would
# otherwise name that checkout's revision. It is taken when CMake configures:
# a commit made since then shows after the next configure.
#
# Sets STENCIL_VERSION_STRING ("0.1.0 (revision 6d5e744d1e2f)"), writes
# stencil_version.hpp for the programs, and the target stencil_version
# that puts it on their include path.
set(STENCIL_REVISION "" CACHE STRING "revision the reports name (default: git describe of this checkout)")
set(STENCIL_REVISION_USED "${STENCIL_REVISION}")
if(NOT STENCIL_REVISION_USED)
  set(STENCIL_REVISION_USED "unknown")
  find_package(Git QUIET)
  if(GIT_FOUND)
    execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --show-toplevel WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
                    OUTPUT_VARIABLE _top OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    get_filename_component(_top "${_top}" REALPATH)
    get_filename_component(_source "${PROJECT_SOURCE_DIR}" REALPATH)
    if(_top STREQUAL _source)
      execute_process(COMMAND ${GIT_EXECUTABLE} describe --always --dirty --abbrev=12
                      WORKING_DIRECTORY ${PROJECT_SOURCE_DIR} OUTPUT_VARIABLE STENCIL_REVISION_USED
                      OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    endif()
  endif()
endif()
set(STENCIL_VERSION_STRING "${PROJECT_VERSION} (revision ${STENCIL_REVISION_USED})")

# A generated header, rewritten only when its text changes, so a new
# revision rebuilds the few files that print it and nothing else.
configure_file(${CMAKE_CURRENT_LIST_DIR}/stencil_version.hpp.in
               ${PROJECT_BINARY_DIR}/generated/stencil_version.hpp @ONLY)
add_library(stencil_version INTERFACE)
target_include_directories(stencil_version INTERFACE ${PROJECT_BINARY_DIR}/generated)
