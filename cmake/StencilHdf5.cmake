# Parallel HDF5 for --output-format hdf5 (miniapp/io/hdf5_file.cpp), included
# at file scope after find_package(MPI). STENCIL_HDF5:
#   AUTO: used where a parallel HDF5 is found whose MPI is the project's;
#   ON:   the same, and anything else is a configure error saying why;
#   OFF:  not looked for (the build is as it was before HDF5 snapshots).
# Sets STENCIL_HDF5_FOUND (the library, or OFF) and STENCIL_HDF5_WHY (why
# not, for the summary), and the target stencil_hdf5 where found.
#
# Debian: libhdf5-openmpi-dev (h5pcc, /usr/lib/x86_64-linux-gnu/hdf5/openmpi),
# found through its compiler wrapper; where the serial libhdf5-dev is also
# installed, HDF5_PREFER_PARALLEL (on here unless set) picks h5pcc first, and
# -DHDF5_ROOT=/usr/lib/x86_64-linux-gnu/hdf5/openmpi (or mpich) names one.
# Frontier and LUMI: module load cray-hdf5-parallel; the Cray compiler
# wrappers then compile and link it themselves.

set(STENCIL_HDF5_FOUND OFF)
set(STENCIL_HDF5_WHY "not looked for")
if(NOT STENCIL_BUILD_MINIAPP OR STENCIL_HDF5 STREQUAL "OFF")
  return()
endif()

# FindHDF5 compiles a C test program: without a C compiler, AUTO goes on
# without HDF5 rather than fail a configuration that needed none before.
include(CheckLanguage)
check_language(C)
if(NOT CMAKE_C_COMPILER)
  set(STENCIL_HDF5_WHY "no C compiler, which CMake's FindHDF5 needs (set CC)")
  if(STENCIL_HDF5 STREQUAL "ON")
    message(FATAL_ERROR "STENCIL_HDF5=ON: ${STENCIL_HDF5_WHY}")
  endif()
  return()
endif()
enable_language(C)
if(NOT DEFINED HDF5_PREFER_PARALLEL)
  set(HDF5_PREFER_PARALLEL ON)
endif()
find_package(HDF5 COMPONENTS C QUIET)

# The MPI library (its SONAME) that a shared library depends on, or "" where
# it names none (a static library, or one the compiler wrappers link).
function(_stencil_mpi_needed library out)
  set(${out} "" PARENT_SCOPE)
  get_filename_component(real "${library}" REALPATH)
  if(NOT CMAKE_OBJDUMP OR NOT real MATCHES "\\.so")
    return()
  endif()
  execute_process(COMMAND ${CMAKE_OBJDUMP} -p "${real}" OUTPUT_VARIABLE dump ERROR_QUIET)
  string(REGEX MATCHALL "(NEEDED|SONAME) +lib(mpi|mpich|mpi_cray)[^ \n]*\\.so[^ \n]*" found "${dump}")
  string(REGEX REPLACE "(NEEDED|SONAME) +" "" found "${found}")
  set(${out} "${found}" PARENT_SCOPE)
endfunction()

# The HDF5 library itself, for the summary's lines (not its dependencies).
set(_hdf5_library "")
foreach(library ${HDF5_C_LIBRARIES})
  if(library MATCHES "hdf5" AND NOT _hdf5_library)
    set(_hdf5_library "${library}")
  endif()
endforeach()
if(NOT HDF5_FOUND)
  string(CONCAT STENCIL_HDF5_WHY "no HDF5 found (Debian: libhdf5-openmpi-dev; Cray: module load "
                                 "cray-hdf5-parallel; elsewhere HDF5_ROOT)")
elseif(NOT HDF5_IS_PARALLEL)
  string(CONCAT STENCIL_HDF5_WHY "HDF5 ${HDF5_VERSION} found is serial (${_hdf5_library}); a parallel "
                                 "one is needed (Debian: libhdf5-openmpi-dev; HDF5_ROOT names one)")
else()
  # The same MPI as the project's: Debian installs Open MPI's and MPICH's
  # HDF5 side by side, and h5pcc names one of them whatever MPI the build
  # uses. Two MPI libraries in one process fail at run time, not at link.
  set(_hdf5_mpi "")
  foreach(library ${HDF5_C_LIBRARIES})
    if(library MATCHES "hdf5")
      _stencil_mpi_needed("${library}" needed)
      list(APPEND _hdf5_mpi ${needed})
    endif()
  endforeach()
  set(_project_mpi "")
  foreach(library ${MPI_CXX_LIBRARIES})
    _stencil_mpi_needed("${library}" soname)
    list(APPEND _project_mpi ${soname})
  endforeach()
  list(REMOVE_DUPLICATES _hdf5_mpi)
  list(REMOVE_DUPLICATES _project_mpi)
  set(_match ON)
  foreach(needed ${_hdf5_mpi})
    if(NOT needed IN_LIST _project_mpi)
      set(_match OFF)
    endif()
  endforeach()
  if(_match)
    add_library(stencil_hdf5 INTERFACE)
    target_include_directories(stencil_hdf5 SYSTEM INTERFACE ${HDF5_C_INCLUDE_DIRS})
    target_link_libraries(stencil_hdf5 INTERFACE ${HDF5_C_LIBRARIES} MPI::MPI_CXX)
    target_compile_definitions(stencil_hdf5 INTERFACE ${HDF5_C_DEFINITIONS})
    set(_mpi_text "${_hdf5_mpi}")
    if(NOT _mpi_text)
      set(_mpi_text "its MPI as the compiler links it")
    endif()
    string(REPLACE ";" ", " _mpi_text "${_mpi_text}")
    set(STENCIL_HDF5_FOUND "HDF5 ${HDF5_VERSION} parallel on ${_mpi_text} (${_hdf5_library})")
    set(STENCIL_HDF5_WHY "")
  else()
    string(REPLACE ";" ", " _hdf5_mpi "${_hdf5_mpi}")
    string(REPLACE ";" ", " _project_mpi "${_project_mpi}")
    string(CONCAT STENCIL_HDF5_WHY "HDF5 ${HDF5_VERSION} found (${_hdf5_library}) is built on ${_hdf5_mpi}, "
                                   "and this build's MPI is ${_project_mpi}: name one on this MPI with "
                                   "HDF5_C_COMPILER_EXECUTABLE (Debian: /usr/bin/h5pcc.mpich, from "
                                   "libhdf5-mpich-dev) or HDF5_ROOT")
  endif()
endif()
if(STENCIL_HDF5 STREQUAL "ON" AND NOT STENCIL_HDF5_FOUND)
  message(FATAL_ERROR "STENCIL_HDF5=ON: ${STENCIL_HDF5_WHY}")
endif()
