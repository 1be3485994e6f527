# The Spack recipe of stencil-miniapp (README.md, "Installing").
# tests/check_spack_recipe.py holds its variants to the CMake options they
# set (ctest's spack_recipe_matches_cmake).
import os

from spack.package import *

try:  # Spack 1.0 and later: the build systems live in its builtin repository
    from spack_repo.builtin.build_systems.cmake import CMakePackage
    from spack_repo.builtin.build_systems.cuda import CudaPackage
    from spack_repo.builtin.build_systems.rocm import ROCmPackage
except ImportError:  # before 1.0, spack.package exports them
    pass

# The checkout this recipe is part of: the project has no public address
# yet, so @main is fetched from here (git over file://); set
# STENCIL_MINIAPP_GIT to fetch it from elsewhere.
_CHECKOUT = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


class StencilMiniapp(CMakePackage, CudaPackage, ROCmPackage):
    """A distributed, high-order finite-difference stencil mini-app for GPUs:
    the acoustic wave equation on a 3D grid split over MPI ranks, one GPU
    each, halos exchanged behind the interior kernel. One kernel source
    builds for CUDA (+cuda), HIP (+rocm) and an OpenMP HOST back-end (neither:
    every rank on CPU cores, no GPU needed)."""

    git = os.environ.get("STENCIL_MINIAPP_GIT", "file://" + _CHECKOUT)

    license("BSD-3-Clause")

    version("main", branch="main")

    # +cuda and +rocm (the mixins) choose the back-end; with neither, the
    # HOST back-end. A separate host variant could only contradict them.
    variant("nccl", default=False, description="--comm nccl: NCCL (+cuda) or RCCL (+rocm)")
    variant("bench", default=True, description="stencil-bench (Google Benchmark) beside the mini-app")
    variant("hdf5", default=False, description="--output-format hdf5: snapshots through parallel HDF5")

    conflicts("+cuda", when="+rocm", msg="one GPU back-end: +cuda or +rocm")
    conflicts("+nccl", when="~cuda ~rocm", msg="NCCL and RCCL need a GPU back-end (+cuda or +rocm)")
    conflicts("cuda_arch=none", when="+cuda", msg="name the GPUs: cuda_arch=90 (H100, H200)")
    conflicts("amdgpu_target=none", when="+rocm", msg="name the GPUs: amdgpu_target=gfx90a (MI250X)")

    depends_on("cxx", type="build")
    depends_on("cmake@3.24:", type="build")
    depends_on("mpi")
    depends_on("nlohmann-json@3.9:")
    depends_on("zlib-api")
    # PNG slices and shot gathers need stb's image writer, which Spack has
    # no package of: built without it, --slice is refused in one line and
    # the traces are written without their picture.
    depends_on("benchmark", when="+bench")
    depends_on("googletest", type="test")
    depends_on("cuda@12:", when="+cuda")
    depends_on("hip", when="+rocm")
    depends_on("nccl", when="+nccl +cuda")
    depends_on("rccl", when="+nccl +rocm")
    # ... built for the same GPUs: Spack's nccl refuses cuda_arch=none (so
    # +cuda +nccl did not concretize), and rccl would take amdgpu_target=auto.
    for _arch in CudaPackage.cuda_arch_values:
        depends_on(f"nccl cuda_arch={_arch}", when=f"+nccl +cuda cuda_arch={_arch}")
    for _target in ROCmPackage.amdgpu_targets:
        depends_on(f"rccl amdgpu_target={_target}", when=f"+nccl +rocm amdgpu_target={_target}")
    # On the same MPI as the mini-app (Spack builds one mpi for the spec).
    depends_on("hdf5+mpi", when="+hdf5")
    # The tools and the reader (python/stencil_miniapp) are Python.
    extends("python")
    depends_on("python@3.8:", type=("build", "run"))
    depends_on("py-numpy", type="run")
    depends_on("py-matplotlib", type="run")
    depends_on("py-jsonschema", type="run")
    depends_on("py-h5py", type="run", when="+hdf5")

    def setup_build_environment(self, env):
        # The HIP back-end is compiled by hipcc (cmake/StencilBackend.cmake).
        if self.spec.satisfies("+rocm"):
            env.set("CXX", self.spec["hip"].hipcc)

    def cmake_args(self):
        spec = self.spec
        backend = "CUDA" if spec.satisfies("+cuda") else "HIP" if spec.satisfies("+rocm") else "HOST"
        args = [
            self.define("STENCIL_BACKEND", backend),
            self.define_from_variant("STENCIL_NCCL", "nccl"),
            self.define_from_variant("STENCIL_BUILD_BENCH", "bench"),
            self.define_from_variant("STENCIL_HDF5", "hdf5"),
            self.define("STENCIL_BUILD_TESTS", self.run_tests),
            self.define("STENCIL_PYTHON_INSTALL_DIR", spec["python"].package.purelib),
        ]
        if spec.satisfies("+cuda"):
            args.append(self.define("STENCIL_CUDA_ARCHS", ";".join(spec.variants["cuda_arch"].value)))
        if spec.satisfies("+rocm"):
            args.append(self.define("STENCIL_HIP_ARCHS", ";".join(spec.variants["amdgpu_target"].value)))
        return args
