#include "schedule/step_phases.hpp"

namespace stencil {

std::vector<Phase> step_phases(const ScheduleInputs& in, int ring_step) {
    using K = PhaseKind;
    // Between exchanges (deep halos): the ring box, which reads only what
    // the steps before it left valid, then the source, all on compute.
    if (ring_step > 0) return {{K::Interior, Lane::Compute}, {K::Source, Lane::Compute}};

    std::vector<Phase> s{{K::Begin, Lane::Host}};
    // Linked neighbours store into this rank's halos, and it into theirs,
    // only once both have finished the step before (kernels/step_counts.hpp):
    // first, on compute, so that the halo stream's work forks after it.
    if (in.links) s.push_back({K::Await, Lane::Compute});
    if (in.messages) {
        // After the previous step, whose last work is on the compute stream.
        s.push_back({K::Fork, Lane::Compute});
        s.push_back({K::Pack, Lane::Halo});
        if (in.overlap && in.pack_reaches_interior) s.push_back({K::Join, Lane::Compute});
    }
    // Enqueued before Post, where the host waits for the pack: the interior
    // reads only owned cells of p and halos already in, and writes p_next,
    // which the exchange never touches, so the device need not idle while
    // the host posts.
    if (in.overlap) s.push_back({K::Interior, Lane::Compute});
    if (in.messages) {
        s.push_back({K::Post, in.host_between ? Lane::Host : Lane::Halo});
        if (in.host_between) s.push_back({K::Wait, Lane::Host});
        s.push_back({K::Unpack, Lane::Halo});
    }
    // The shell follows the unpack on the high-priority halo stream, so it
    // starts as soon as the halos are in, beside the interior's last blocks
    // rather than behind them. With nothing exchanged, on compute.
    const Lane update = in.messages ? Lane::Halo : Lane::Compute;
    s.push_back({in.overlap ? K::Boundary : K::Whole, update});
    if (in.messages) s.push_back({K::Join, Lane::Compute});
    s.push_back({K::Source, Lane::Compute});
    if (in.links) s.push_back({K::Signal, Lane::Compute});
    return s;
}

std::vector<PhaseRun> graph_runs(const std::vector<Phase>& phases) {
    std::vector<PhaseRun> runs;
    const std::size_t n = phases.size();
    auto one_by_one = [&](std::size_t i) {
        runs.push_back({i, i + 1, false, phases[i].lane, false});
    };
    std::size_t i = 0;
    while (i < n) {
        if (phases[i].lane == Lane::Host) {
            one_by_one(i++);
            continue;
        }
        PhaseRun run{i, i, true, phases[i].lane, false};
        auto halo_side_join = [&](std::size_t j) {
            return run.origin == Lane::Halo && phases[j].kind == PhaseKind::Join;
        };
        while (run.last < n && phases[run.last].lane != Lane::Host && !halo_side_join(run.last)) {
            // A capture begun on compute ends with every fork joined: the
            // halo stream's work after the run's last Join needs one more.
            if (phases[run.last].kind == PhaseKind::Join) run.joins_halo = false;
            if (phases[run.last].lane == Lane::Halo) run.joins_halo = run.origin == Lane::Compute;
            ++run.last;
        }
        runs.push_back(run);
        i = run.last;
        while (i < n && phases[i].lane != Lane::Host && run.origin == Lane::Halo)
            one_by_one(i++);
    }
    return runs;
}

const char* phase_name(PhaseKind kind) {
    switch (kind) {
    case PhaseKind::Begin:
        return "begin";
    case PhaseKind::Fork:
        return "fork";
    case PhaseKind::Pack:
        return "pack";
    case PhaseKind::Interior:
        return "interior";
    case PhaseKind::Post:
        return "post";
    case PhaseKind::Wait:
        return "wait";
    case PhaseKind::Unpack:
        return "unpack";
    case PhaseKind::Boundary:
        return "boundary";
    case PhaseKind::Whole:
        return "whole";
    case PhaseKind::Await:
        return "await";
    case PhaseKind::Signal:
        return "signal";
    case PhaseKind::Join:
        return "join";
    case PhaseKind::Source:
        return "source";
    case PhaseKind::Hook:
        return "hook";
    }
    return "?";
}

const char* lane_name(Lane lane) {
    return lane == Lane::Host ? "host" : lane == Lane::Compute ? "compute" : "halo";
}

std::string describe(const std::vector<Phase>& phases) {
    std::string text;
    for (const Phase& p : phases)
        text += std::string(text.empty() ? "" : " ") + phase_name(p.kind) + "@" + lane_name(p.lane);
    return text;
}

} // namespace stencil
