// The test aids: bugs planted on purpose (--inject-fault) and halos filled
// with NaN before each exchange (--poison-halo), with which the tests show
// that --check, the NaN check and the output safety catch what they are
// meant to. A leaf room: it depends on no other. Production code asks the
// queries below in a few places, each marked "test aid".
#pragma once

#include <string>
#include <vector>

namespace stencil {

class TestAids {
public:
    // The step after which the nan and fail-rank faults strike.
    static constexpr int kFaultStep = 3;

    // --inject-fault's value (drop-face, short-ring, short-fused-pack,
    // early-boundary, peer-skip-wait, peer-early-signal, peer-wrong-face,
    // peer-wrong-level, skip-slab-cell,
    // nan, fail-rank=N, late-rank=N, write-error) plants that
    // fault, in place of one an earlier --inject-fault named (the last
    // counts, as for every option given twice); returns "" or why the value
    // is none of them, for the caller to put after the option's name.
    std::string inject_fault(const std::string& value);
    // --poison-halo.
    void set_poison_halo() { poison_halo_ = true; }
    // The aids planted, as the options name them ("" if none): the report
    // carries them, so that no figure of such a run passes for a measurement.
    std::string planted() const;
    // The same, one aid each.
    std::vector<std::string> planted_list() const;
    // "" or why a rank the aids name (fail-rank=N, late-rank=N) is not one
    // of the job's `ranks`: such an aid would plant nothing.
    std::string rank_problem(int ranks) const;
    // "" or why an aid asked for would plant nothing, or nothing that
    // anything could catch, in a run continued after step `first` (0: from
    // the start) to step `steps`, with a snapshot every `snapshot_every`
    // steps (0: none), on `ranks` ranks, `comm_none` where no halo moves
    // between them: nan and fail-rank=N strike after kFaultStep,
    // write-error at the run's second snapshot, and a bug in the exchange
    // under --comm none on several ranks is in a field that is not the
    // one-domain answer anyway, where --check cannot run.
    struct Reach {
        int first = 0, steps = 0, snapshot_every = 0, ranks = 1;
        bool comm_none = false;
    };
    std::string reach_problem(const Reach& run) const;
    // The bug planted in the exchange, the ring or the schedule, as
    // --inject-fault names it; "" if none.
    std::string exchange_bug() const;

    // Fill the halos to be received with NaN before each exchange.
    bool poison_halo() const { return poison_halo_; }
    // Zero one received face (the exchange's set_drop_one_face).
    bool drop_face() const { return drop_face_; }
    // Update the ghost ring of deep halos one cell short.
    bool short_ring() const { return short_ring_; }
    // Store the first face of the fused pack one cell short along x.
    bool short_fused_pack() const { return short_fused_pack_; }
    // Launch the boundary slabs before their halos arrive.
    bool early_boundary() const { return early_boundary_; }
    // --comm peer: every rank skips its wait for the neighbours' step; or
    // raises its own step before its faces are stored; and in both, every
    // rank but 0 stores its faces kPeerStallMicroseconds late, so that the
    // race is lost on every step (stalls_stores).
    static constexpr int kPeerStallMicroseconds = 20000;
    bool peer_skip_wait() const { return peer_skip_wait_; }
    bool peer_early_signal() const { return peer_early_signal_; }
    bool stalls_stores(int rank) const {
        return (peer_skip_wait_ || peer_early_signal_) && rank != 0;
    }
    // Swap the targets of two linked faces of the same shape: a face stored
    // into the wrong neighbour's halo.
    bool peer_wrong_face() const { return peer_wrong_face_; }
    // Store a linked face into the neighbour's time level that it still
    // reads in the same step, not the one it reads next.
    bool peer_wrong_level() const { return peer_wrong_level_; }
    // One cell of the boundary slabs left as it was before the slab kernel:
    // a cell the kernel skips.
    bool skip_slab_cell() const { return skip_slab_cell_; }
    // A write error is planted (it needs snapshots to strike).
    bool write_error() const { return write_error_; }
    // Put a NaN at the source after `step`.
    bool nan_at(int step) const { return nan_ && step == kFaultStep; }
    // `rank` fails after `step`.
    bool fails(int rank, int step) const { return fail_rank_ == rank && step == kFaultStep; }
    // The write of snapshot number `snapshot` (0-based) by `rank` of `ranks`
    // meets a full disk: the last rank's part of the second one.
    bool snapshot_write_fails(int snapshot, int rank, int ranks) const {
        return write_error_ && snapshot == 1 && rank == ranks - 1;
    }

    // --inject-fault late-rank=N: rank N reaches the timed steps this much
    // later than the others (hold_back), which no reported step time may
    // contain.
    static constexpr double kLateRankSeconds = 2.0;
    void hold_back(int rank) const;

    // The same aids without the planted bugs in the exchange, the ring and
    // the schedule: what --check's one-domain reference runs with.
    TestAids without_exchange_bugs() const {
        TestAids clean = *this;
        clean.drop_face_ = clean.short_ring_ = false;
        clean.short_fused_pack_ = clean.early_boundary_ = false;
        clean.peer_skip_wait_ = clean.peer_early_signal_ = clean.peer_wrong_face_ = false;
        clean.peer_wrong_level_ = false;
        clean.skip_slab_cell_ = false;
        return clean;
    }

private:
    bool poison_halo_ = false;
    bool drop_face_ = false;
    bool short_ring_ = false;
    bool short_fused_pack_ = false;
    bool early_boundary_ = false;
    bool peer_skip_wait_ = false, peer_early_signal_ = false, peer_wrong_face_ = false;
    bool peer_wrong_level_ = false;
    bool skip_slab_cell_ = false;
    bool nan_ = false;
    int fail_rank_ = -1;
    int late_rank_ = -1;
    bool write_error_ = false;
};

// STENCIL_NODE_RANKS=N: blocks of N ranks taken as one node, so that one
// machine can try faces that cross "nodes" (tests/README.md). Sets
// `ranks_per_node` to N, or to 0 where it is unset; returns "" or why the
// value is not a whole number from 1.
std::string ranks_per_node_from_environment(int& ranks_per_node);

} // namespace stencil
