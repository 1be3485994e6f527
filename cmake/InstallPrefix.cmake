# Run by cmake --install, first of all its rules (cmake/StencilInstall.cmake)
# and again by cmake/InstallJobscripts.cmake: the absolute folders the job
# scripts will name, STENCIL_INSTALL_BIN and STENCIL_INSTALL_SHARE, from
# STENCIL_INSTALL_BINDIR and STENCIL_INSTALL_SHAREDIR. A prefix they cannot
# name is refused here, before any file is installed, so that a refused
# install leaves nothing behind.
# The scripts name the prefix absolutely: cmake --install --prefix may
# name it relative to the folder it is run in, which a job never runs in.
set(_prefix "${CMAKE_INSTALL_PREFIX}")
if(NOT IS_ABSOLUTE "${_prefix}")
  if(NOT DEFINED ENV{PWD})
    message(FATAL_ERROR "the job scripts need an absolute install prefix, not ${_prefix}")
  endif()
  get_filename_component(_prefix "$ENV{PWD}/${_prefix}" ABSOLUTE)
endif()
foreach(_kind BIN SHARE)
  set(STENCIL_INSTALL_${_kind} "${STENCIL_INSTALL_${_kind}DIR}")
  if(NOT IS_ABSOLUTE "${STENCIL_INSTALL_${_kind}}")
    set(STENCIL_INSTALL_${_kind} "${_prefix}/${STENCIL_INSTALL_${_kind}}")
  endif()
endforeach()
if("${STENCIL_INSTALL_BIN}${STENCIL_INSTALL_SHARE}" MATCHES "[\"$`\\\n]")
  message(FATAL_ERROR "the job scripts cannot name a prefix holding \", $, `, a backslash or a "
                      "line break: "
                      "${STENCIL_INSTALL_SHARE}; install into another")
endif()
