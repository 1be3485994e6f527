// MPI error checking, job-wide fatal errors, and RAII owners of MPI objects.
#pragma once

#include "fatal.hpp"

#include <mpi.h>

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace stencil {

std::string mpi_error_string(int code);

// Checks an MPI call; on failure names it, the place and MPI's message, and
// aborts the whole job (never leaves the other ranks waiting).
#define MPI_CHECK(expr)                                                                            \
    do {                                                                                           \
        const int stencil_mpi_err_ = (expr);                                                       \
        if (stencil_mpi_err_ != MPI_SUCCESS)                                                       \
            ::stencil::fatal_check(#expr, __FILE__, __LINE__,                                      \
                                   ::stencil::mpi_error_string(stencil_mpi_err_));                 \
    } while (0)

// The whole life of an MPI program: MPI_Init; stencil::fatal (GPU_CHECK,
// MPI_CHECK, out of memory, ...) routed to one line on stderr, starting
// with `program` and naming the rank, then MPI_Abort of MPI_COMM_WORLD;
// MPI errors returned, so that MPI_CHECK can name them; `body`; and
// MPI_Finalize once everything `body` made is destroyed. An exception
// escaping `body` also becomes one fatal line: a failing rank never leaves
// the others waiting. Returns body's exit status.
int run_mpi_program(const char* program, int argc, char** argv, int (*body)(int, char**));

int world_rank();
int world_size();

// Collective over `comm`: every rank passes "" or one line saying what went
// wrong there (a bad input rank 0 found, a write that failed); every rank
// gets "" or the lowest failing rank's line, so all can refuse together.
std::string first_problem(MPI_Comm comm, const std::string& problem);

// Collective over `comm`: `text` as rank `root` has it, on every rank.
std::string broadcast_text(MPI_Comm comm, const std::string& text, int root = 0);

// A communicator this program created; freed on destruction.
class Communicator {
public:
    Communicator() = default;
    explicit Communicator(MPI_Comm comm) : comm_(comm) {}
    ~Communicator() { reset(); }
    Communicator(Communicator&& o) noexcept : comm_(std::exchange(o.comm_, MPI_COMM_NULL)) {}
    Communicator& operator=(Communicator&& o) noexcept {
        if (this != &o) {
            reset();
            comm_ = std::exchange(o.comm_, MPI_COMM_NULL);
        }
        return *this;
    }
    Communicator(const Communicator&) = delete;
    Communicator& operator=(const Communicator&) = delete;
    MPI_Comm get() const { return comm_; }

private:
    void reset();
    MPI_Comm comm_ = MPI_COMM_NULL;
};

// The MPI type of a field element (or an int).
template <class T>
MPI_Datatype mpi_datatype() {
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, int>);
    return std::is_same_v<T, double> ? MPI_DOUBLE : std::is_same_v<T, float> ? MPI_FLOAT : MPI_INT;
}

// Collective over `comm`. Rank 0: every rank's `mine` concatenated in rank
// order, and in `starts` (if given) where each rank's part begins; other
// ranks: empty.
template <class T>
std::vector<T> gather_to_root(MPI_Comm comm, const std::vector<T>& mine,
                              std::vector<int>* starts = nullptr) {
    int rank = 0, size = 1;
    MPI_CHECK(MPI_Comm_rank(comm, &rank));
    MPI_CHECK(MPI_Comm_size(comm, &size));
    const int count = int(mine.size());
    std::vector<int> counts(static_cast<std::size_t>(size)), displs(counts.size());
    MPI_CHECK(MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm));
    for (int r = 1; r < size; ++r)
        displs[r] = displs[r - 1] + counts[r - 1];
    std::vector<T> all(rank == 0 ? std::size_t(displs.back() + counts.back()) : 0);
    MPI_CHECK(MPI_Gatherv(mine.data(), count, mpi_datatype<T>(), all.data(), counts.data(),
                          displs.data(), mpi_datatype<T>(), 0, comm));
    if (starts) *starts = displs;
    return all;
}

// Collective over `comm`, the reverse of gather_to_root: rank 0 holds every
// rank's part in rank order in `all`; each rank gets its own `count`
// elements.
template <class T>
std::vector<T> scatter_from_root(MPI_Comm comm, const std::vector<T>& all, int count) {
    int size = 1;
    MPI_CHECK(MPI_Comm_size(comm, &size));
    std::vector<int> counts(static_cast<std::size_t>(size)), displs(counts.size());
    MPI_CHECK(MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm));
    for (int r = 1; r < size; ++r)
        displs[r] = displs[r - 1] + counts[r - 1];
    std::vector<T> mine(static_cast<std::size_t>(count));
    MPI_CHECK(MPI_Scatterv(all.data(), counts.data(), displs.data(), mpi_datatype<T>(), mine.data(),
                           count, mpi_datatype<T>(), 0, comm));
    return mine;
}

// Persistent requests, created once and started every step; freed on destruction.
class PersistentRequests {
public:
    PersistentRequests() = default;
    ~PersistentRequests();
    PersistentRequests(PersistentRequests&& o) noexcept : requests_(std::move(o.requests_)) {}
    PersistentRequests& operator=(PersistentRequests&& o) noexcept;
    PersistentRequests(const PersistentRequests&) = delete;
    PersistentRequests& operator=(const PersistentRequests&) = delete;

    void add_send(const void* buffer, int count, MPI_Datatype type, int rank, int tag,
                  MPI_Comm comm);
    void add_recv(void* buffer, int count, MPI_Datatype type, int rank, int tag, MPI_Comm comm);
    void start_all();
    void wait_all();
    bool empty() const { return requests_.empty(); }

private:
    void free_all() noexcept;
    std::vector<MPI_Request> requests_;
};

} // namespace stencil
