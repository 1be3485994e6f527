# Run by cmake --install (cmake/StencilInstall.cmake): installs the job
# scripts' shell files into the prefix's STENCIL_INSTALL_SHAREDIR/jobscripts, each made to
# name what is installed instead of a checkout's paths:
#   - build/, build-hip/, build-cuda/ programs -> STENCIL_INSTALL_BIN;
#   - jobscripts/ and tools/ relative to the repository root -> the
#     installed share folder (a prefix may hold spaces: where the scripts
#     use these paths as code they quote them, and `source` lines and the
#     programs' defaults are quoted here);
#   - the local drivers' "cd to the repository root" goes: results go under
#     the folder they are run from, never into the prefix.
# tests/install_test.sh checks that no checkout path is left.
include("${CMAKE_CURRENT_LIST_DIR}/InstallPrefix.cmake") # STENCIL_INSTALL_BIN and _SHARE
file(GLOB_RECURSE _scripts RELATIVE "${STENCIL_JOBSCRIPTS_SOURCE}"
     "${STENCIL_JOBSCRIPTS_SOURCE}/*.sh" "${STENCIL_JOBSCRIPTS_SOURCE}/*.sbatch")
foreach(_rel ${_scripts})
  file(READ "${STENCIL_JOBSCRIPTS_SOURCE}/${_rel}" _text)
  # Programs: quoted, as a default inside ${APP:-...} takes it.
  string(REGEX REPLACE "(\\$\\(dirname \"\\$0\"\\)/\\.\\./\\.\\./)?build(-hip|-cuda)?/(miniapp|bench)/(stencil-[a-z-]+)"
         "\"${STENCIL_INSTALL_BIN}/\\4\"" _text "${_text}")
  string(REPLACE "cd \"$(dirname \"$0\")/../..\"" ": # installed: results go under the folder it runs in"
         _text "${_text}")
  string(REGEX REPLACE "source jobscripts/([A-Za-z0-9_./-]+)" "source \"${STENCIL_INSTALL_SHARE}/jobscripts/\\1\""
         _text "${_text}")
  string(REPLACE "\"\${SLURM_SUBMIT_DIR:-.}/jobscripts/" "\"${STENCIL_INSTALL_SHARE}/jobscripts/"
         _text "${_text}")
  # Every other mention as it stands: in code the scripts quote these paths,
  # in comments and messages the words stay words.
  string(REGEX REPLACE "([\n (=\"])(jobscripts|tools)/" "\\1${STENCIL_INSTALL_SHARE}/\\2/" _text "${_text}")
  string(REPLACE "Submit from the repository root" "Submit from the folder results/ should go under"
         _text "${_text}")
  get_filename_component(_dir "${_rel}" DIRECTORY)
  file(WRITE "${STENCIL_JOBSCRIPTS_STAGING}/${_rel}" "${_text}")
  file(INSTALL "${STENCIL_JOBSCRIPTS_STAGING}/${_rel}" DESTINATION "${STENCIL_INSTALL_SHARE}/jobscripts/${_dir}"
       FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
endforeach()
