#include "binding.hpp"

#include "gpu_runtime.hpp"
#include "mpi_util.hpp"

#include <cstdio>
#include <vector>

namespace stencil {

Binding bind_to_device(MPI_Comm comm) {
    Binding b;
    MPI_Comm node;
    MPI_CHECK(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    Communicator owned(node);
    MPI_CHECK(MPI_Comm_rank(node, &b.local_rank));
    MPI_CHECK(MPI_Comm_size(node, &b.local_size));
    char name[MPI_MAX_PROCESSOR_NAME];
    int length = 0;
    MPI_CHECK(MPI_Get_processor_name(name, &length));
    b.host.assign(name, length);
    const int devices = device_count();
    if (STENCIL_HAS_GPU && devices == 0)
        fatal(std::string("no GPU visible to this ") + backend_name() + " build");
    if (devices > 0) {
        b.device = b.local_rank % devices;
        set_device(b.device);
    }
    b.info = device_info(b.device < 0 ? 0 : b.device);
    return b;
}

std::string binding_table(const Binding& b, MPI_Comm comm) {
    int rank = 0, size = 1;
    MPI_CHECK(MPI_Comm_rank(comm, &rank));
    MPI_CHECK(MPI_Comm_size(comm, &size));
    char line[256];
    std::snprintf(line, sizeof line, "%5d  %-20s %5d  %6s  %-14s %s", rank, b.host.c_str(),
                  b.local_rank, b.device < 0 ? "host" : std::to_string(b.device).c_str(),
                  b.info.pci_bus_id.c_str(), b.info.name.c_str());
    constexpr int width = sizeof line;
    std::vector<char> all(rank == 0 ? std::size_t(width) * size : 0);
    MPI_CHECK(MPI_Gather(line, width, MPI_CHAR, all.data(), width, MPI_CHAR, 0, comm));
    if (rank != 0) return {};
    std::string table = " rank  host                 local  device  pci bus id     name\n";
    for (int r = 0; r < size; ++r)
        table += std::string(all.data() + std::size_t(r) * width) + "\n";
    return table;
}

} // namespace stencil
