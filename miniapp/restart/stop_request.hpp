// A graceful stop on SIGTERM, SIGINT or SIGUSR1 (what a scheduler sends
// before the time limit: Slurm's --signal=USR1@120; Ctrl-C).
//
// The handler only records the signal. The ranks agree on it without an
// allreduce every step: every kStopAgreement steps each rank starts a
// non-blocking MAX reduction of what it has seen and waits for the one it
// started kStopAgreement steps before (long done by then), so every rank
// reads the same verdict at the same step. A second signal while the run
// is stopping ends the process at once (exit 128 + signal); only a .partial
// file of the write under way is left behind, and the output folder's
// and the checkpoint folder's locks are removed (remove_on_immediate_exit).
#pragma once

#include <mpi.h>

#include <string>

namespace stencil {

// Steps between a signal and the agreed stop, at most 2x this: a multiple of
// the longest chunk of steps one graph holds (step/step_chunks.cpp), so
// that the agreements end chunks rather than split them.
constexpr int kStopAgreement = 16;
constexpr int kStoppedExitStatus = 75; // EX_TEMPFAIL: stopped early, resume with --restart

// The files an immediate exit removes: the output folder's lock and the
// checkpoint folder's, whose run is over once it exits. Kept in fixed
// buffers, removed with unlink: both safe inside a signal handler. ""
// forgets one.
void remove_on_immediate_exit(const std::string& path, const std::string& second = {});

// Records SIGTERM, SIGINT and SIGUSR1 from now on. Called first thing in
// main, before MPI_Init, so that a signal during the set-up (a scheduler's
// warning can come early) stops the run at its first agreement instead of
// killing it.
void install_stop_handlers();

// Whether this rank has recorded a stop signal (not collective): for a
// loop before the run's StopRequest exists, which agrees on it itself.
bool stop_signal_seen();

class StopRequest {
public:
    // Installs the handlers if they are not yet (collective over `comm`,
    // which it duplicates); the destructor puts the defaults back.
    explicit StopRequest(MPI_Comm comm);
    ~StopRequest();
    StopRequest(const StopRequest&) = delete;
    StopRequest& operator=(const StopRequest&) = delete;

    struct Agreement {
        bool stop = false;       // signal_name() says what asked
        bool checkpoint = false; // some rank wished for one
    };
    // After step n: what the ranks agreed on here. Collective: every rank
    // calls it at the same steps, the ends of the driver's run() calls
    // before the last step (each step with host work, every
    // kStopAgreement-th among them: driver.cpp, next_host_step); it acts
    // after every kStopAgreement-th step and agrees on nothing after the
    // others. The same reduction carries this rank's wish for a
    // checkpoint (rank 0's clock, for --checkpoint-every TIME), agreed on
    // as a stop is; a wish sent as an agreed checkpoint arrives is dropped.
    Agreement agreed_after(int n, bool checkpoint_wanted = false);
    // Whether any rank has seen a signal (collective, blocking): for the
    // warm-up, whose steps are not timed and need not be agreed on ahead.
    bool seen_anywhere();
    // From now on a further signal ends the process at once.
    void stopping();
    std::string signal_name() const;

private:
    MPI_Comm comm_ = MPI_COMM_NULL;
    MPI_Request pending_ = MPI_REQUEST_NULL;
    int sent_[2] = {0, 0}, verdict_[2] = {0, 0}; // the signal, a checkpoint wish
};

} // namespace stencil
