#include "mpi_util.hpp"

#include <climits>
#include <cstdio>
#include <exception>
#include <new>

namespace stencil {

std::string mpi_error_string(int code) {
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    if (MPI_Error_string(code, text, &length) != MPI_SUCCESS)
        return "MPI error " + std::to_string(code);
    return std::string(text, length);
}

int world_rank() {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank;
}

int world_size() {
    int size = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    return size;
}

std::string first_problem(MPI_Comm comm, const std::string& problem) {
    int rank = 0;
    MPI_CHECK(MPI_Comm_rank(comm, &rank));
    int first = problem.empty() ? INT_MAX : rank;
    MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, comm));
    if (first == INT_MAX) return {};
    return broadcast_text(comm, problem, first);
}

std::string broadcast_text(MPI_Comm comm, const std::string& text, int root) {
    int rank = 0;
    MPI_CHECK(MPI_Comm_rank(comm, &rank));
    int length = rank == root ? int(text.size()) : 0;
    MPI_CHECK(MPI_Bcast(&length, 1, MPI_INT, root, comm));
    std::string all = rank == root ? text : std::string(std::size_t(length), ' ');
    MPI_CHECK(MPI_Bcast(all.data(), length, MPI_CHAR, root, comm));
    return all;
}

namespace {
const char* program_name = "stencil";

void abort_job(const std::string& message) {
    std::fprintf(stderr, "%s: rank %d: %s\n", program_name, world_rank(), message.c_str());
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 3);
}
} // namespace

int run_mpi_program(const char* program, int argc, char** argv, int (*body)(int, char**)) {
    MPI_Init(&argc, &argv);
    program_name = program;
    set_fatal_handler(abort_job);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int status = 0;
    try {
        status = body(argc, argv);
    } catch (const std::bad_alloc&) {
        fatal("out of host memory");
    } catch (const std::exception& e) {
        fatal(std::string("unexpected error: ") + e.what());
    }
    MPI_Finalize();
    return status;
}

void Communicator::reset() {
    if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
    comm_ = MPI_COMM_NULL;
}

PersistentRequests::~PersistentRequests() {
    free_all();
}

PersistentRequests& PersistentRequests::operator=(PersistentRequests&& o) noexcept {
    if (this != &o) {
        free_all();
        requests_ = std::move(o.requests_);
    }
    return *this;
}

void PersistentRequests::free_all() noexcept {
    for (MPI_Request& r : requests_)
        if (r != MPI_REQUEST_NULL) MPI_Request_free(&r);
    requests_.clear();
}

void PersistentRequests::add_send(const void* buffer, int count, MPI_Datatype type, int rank,
                                  int tag, MPI_Comm comm) {
    MPI_Request r;
    MPI_CHECK(MPI_Send_init(buffer, count, type, rank, tag, comm, &r));
    requests_.push_back(r);
}

void PersistentRequests::add_recv(void* buffer, int count, MPI_Datatype type, int rank, int tag,
                                  MPI_Comm comm) {
    MPI_Request r;
    MPI_CHECK(MPI_Recv_init(buffer, count, type, rank, tag, comm, &r));
    requests_.push_back(r);
}

void PersistentRequests::start_all() {
    if (!requests_.empty()) MPI_CHECK(MPI_Startall(int(requests_.size()), requests_.data()));
}

void PersistentRequests::wait_all() {
    if (!requests_.empty())
        MPI_CHECK(MPI_Waitall(int(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE));
}

} // namespace stencil
