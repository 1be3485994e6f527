#include "restart/stop_request.hpp"

#include "mpi_util.hpp"

#include <csignal>
#include <string>
#include <unistd.h>

namespace stencil {
namespace {

volatile std::sig_atomic_t g_signal = 0;   // the first signal seen, 0 if none
volatile std::sig_atomic_t g_stopping = 0; // the run is already stopping

char g_remove_on_exit[2][4096] = {{0}}; // remove_on_immediate_exit's paths

} // namespace

bool stop_signal_seen() {
    return g_signal != 0;
}

namespace {

extern "C" void on_stop_signal(int signal) {
    if (g_stopping) { // async-signal-safe calls only; the rest is the OS's to clean
        for (const char* path : g_remove_on_exit)
            if (path[0]) unlink(path);
        _exit(128 + signal);
    }
    if (!g_signal) g_signal = signal;
}

constexpr int kSignals[] = {SIGTERM, SIGINT, SIGUSR1};

} // namespace

void remove_on_immediate_exit(const std::string& path, const std::string& second) {
    for (int n = 0; n < 2; ++n) {
        const std::string& p = n == 0 ? path : second;
        char* slot = g_remove_on_exit[n];
        // The first byte last: a signal meanwhile sees "" rather than half a path.
        slot[0] = 0;
        if (p.empty() || p.size() >= sizeof g_remove_on_exit[n]) continue; // a stale lock says why
        p.copy(slot + 1, p.size() - 1, 1);
        slot[p.size()] = 0;
        slot[0] = p[0];
    }
}

void install_stop_handlers() {
    struct sigaction action {};
    action.sa_handler = on_stop_signal;
    sigemptyset(&action.sa_mask);
    for (const int signal : kSignals)
        sigaction(signal, &action, nullptr);
}

StopRequest::StopRequest(MPI_Comm comm) {
    MPI_CHECK(MPI_Comm_dup(comm, &comm_));
    install_stop_handlers();
}

StopRequest::~StopRequest() {
    if (pending_ != MPI_REQUEST_NULL) MPI_Wait(&pending_, MPI_STATUS_IGNORE);
    struct sigaction action {};
    action.sa_handler = SIG_DFL;
    for (const int signal : kSignals)
        sigaction(signal, &action, nullptr);
    MPI_Comm_free(&comm_);
}

StopRequest::Agreement StopRequest::agreed_after(int n, bool checkpoint_wanted) {
    Agreement agreed;
    if (n % kStopAgreement != 0) return agreed;
    if (pending_ != MPI_REQUEST_NULL) {
        MPI_CHECK(MPI_Wait(&pending_, MPI_STATUS_IGNORE));
        agreed.stop = verdict_[0] != 0, agreed.checkpoint = verdict_[1] != 0;
        if (agreed.stop) return agreed;
    }
    sent_[0] = g_signal;
    sent_[1] = checkpoint_wanted && !agreed.checkpoint;
    MPI_CHECK(MPI_Iallreduce(sent_, verdict_, 2, MPI_INT, MPI_MAX, comm_, &pending_));
    return agreed;
}

bool StopRequest::seen_anywhere() {
    int mine = g_signal, any = 0;
    MPI_CHECK(MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, comm_));
    return any != 0;
}

void StopRequest::stopping() {
    g_stopping = 1;
}

std::string StopRequest::signal_name() const {
    switch (verdict_[0]) {
    case SIGTERM:
        return "SIGTERM";
    case SIGINT:
        return "SIGINT";
    case SIGUSR1:
        return "SIGUSR1";
    default:
        return "signal " + std::to_string(verdict_[0]);
    }
}

} // namespace stencil
