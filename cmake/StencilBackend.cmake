# Back-end plumbing: which language compiles the kernel sources, and which
# runtime target the rest of the project links.
#
# Kernel sources are written once (*.cu) and compiled as:
#   CUDA: the CUDA language (nvcc), for STENCIL_CUDA_ARCHS;
#   HIP:  C++ with -x hip. CMake 3.25's HIP language cannot find Debian's
#         multiarch hip-lang package, so the HIP build sets CXX=hipcc and
#         uses find_package(hip), whose hip::device target adds -x hip and
#         --offload-arch for each of GPU_TARGETS;
#   HOST: not at all (kernels/host_backend.cpp stands in for them).

add_library(stencil_backend INTERFACE)

if(STENCIL_BACKEND STREQUAL "HIP")
  get_filename_component(_cxx_name "${CMAKE_CXX_COMPILER}" NAME)
  if(NOT _cxx_name MATCHES "hipcc|clang")
    message(FATAL_ERROR "STENCIL_BACKEND=HIP builds with CXX=hipcc (found ${CMAKE_CXX_COMPILER}); "
                        "configure with: CXX=hipcc cmake -DSTENCIL_BACKEND=HIP ...")
  endif()
  set(GPU_TARGETS "${STENCIL_HIP_ARCHS}" CACHE STRING "AMD GPU targets (set from STENCIL_HIP_ARCHS)" FORCE)
  find_package(hip REQUIRED CONFIG)
  target_compile_definitions(stencil_backend INTERFACE STENCIL_BACKEND_HIP)
  target_link_libraries(stencil_backend INTERFACE hip::host)
  # hipcc compiles every .cpp as HIP (a host and a device pass) unless told
  # otherwise; only the kernel sources need the device pass, and their own
  # -x hip (a source property, so it comes last on the command line) wins.
  target_compile_options(stencil_backend INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-x c++>)
elseif(STENCIL_BACKEND STREQUAL "CUDA")
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES "${STENCIL_CUDA_ARCHS}")
  endif()
  enable_language(CUDA)
  set(CMAKE_CUDA_STANDARD 17)
  set(CMAKE_CUDA_STANDARD_REQUIRED ON)
  find_package(CUDAToolkit REQUIRED)
  target_compile_definitions(stencil_backend INTERFACE STENCIL_BACKEND_CUDA)
  target_link_libraries(stencil_backend INTERFACE CUDA::cudart)
else()
  target_compile_definitions(stencil_backend INTERFACE STENCIL_BACKEND_HOST)
endif()
if(STENCIL_SYNC_KERNELS)
  target_compile_definitions(stencil_backend INTERFACE STENCIL_SYNC_KERNELS)
endif()

# Compiles `sources` (kernel sources, *.cu) for the GPU back-end into `target`.
function(stencil_add_gpu_sources target)
  if(STENCIL_BACKEND STREQUAL "CUDA")
    set_source_files_properties(${ARGN} PROPERTIES LANGUAGE CUDA)
    if(STENCIL_RESOURCE_REPORT)
      target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xptxas=-v>)
    endif()
  elseif(STENCIL_BACKEND STREQUAL "HIP")
    set(_options -x hip)
    if(STENCIL_RESOURCE_REPORT)
      list(APPEND _options -Rpass-analysis=kernel-resource-usage)
    endif()
    set_source_files_properties(${ARGN} PROPERTIES LANGUAGE CXX COMPILE_OPTIONS "${_options}")
    target_link_libraries(${target} PRIVATE hip::device)
  endif()
  target_sources(${target} PRIVATE ${ARGN})
endfunction()
