#include "testing/planted_phases.hpp"

#include <algorithm>

namespace stencil {
namespace {

using Phases = std::vector<Phase>;

Phases::iterator find(Phases& phases, PhaseKind kind) {
    return std::find_if(phases.begin(), phases.end(),
                        [kind](const Phase& p) { return p.kind == kind; });
}

// early-boundary: the slabs right after the step's fork.
void boundary_first(Phases& phases) {
    const auto boundary = find(phases, PhaseKind::Boundary);
    if (boundary == phases.end()) return;
    const Phase moved = *boundary;
    phases.erase(boundary);
    const auto fork = find(phases, PhaseKind::Fork);
    phases.insert(fork == phases.end() ? phases.begin() + 1 : fork + 1, moved);
}

void insert_fault(Phases& phases, Phases::iterator at, FaultSite site, Lane lane = Lane::Halo) {
    phases.insert(at, Phase{PhaseKind::Hook, lane, int(site)});
}

// The step's first update or fork: where the faults that must strike before
// every update go, on compute, so that the halo stream forks after them.
Phases::iterator first_update(Phases& phases) {
    return std::find_if(phases.begin(), phases.end(), [](const Phase& p) {
        return p.kind == PhaseKind::Fork || p.kind == PhaseKind::Interior ||
               p.kind == PhaseKind::Whole;
    });
}

// The linked route's planted races: the wait left out, or the signal
// raised right after the wait (before the update stores the faces); the
// update then held back, so that a neighbour reads halos not yet stored.
void plant_peer_races(Phases& phases, const TestAids& aids) {
    const auto await = find(phases, PhaseKind::Await);
    const auto signal = find(phases, PhaseKind::Signal);
    if (await == phases.end() || signal == phases.end()) return;
    if (aids.peer_early_signal()) {
        const Phase moved = *signal;
        phases.erase(signal);
        phases.insert(find(phases, PhaseKind::Await) + 1, moved);
    }
    if (aids.peer_skip_wait()) phases.erase(find(phases, PhaseKind::Await));
    if (aids.peer_skip_wait() || aids.peer_early_signal())
        insert_fault(phases, first_update(phases), FaultSite::StallStores, Lane::Compute);
}

// skip-slab-cell: one cell's value kept before the slabs and put back
// after them, on the slabs' own stream.
void skip_slab_cell(Phases& phases, const TestAids& aids) {
    const auto boundary = find(phases, PhaseKind::Boundary);
    if (!aids.skip_slab_cell() || boundary == phases.end()) return;
    const Lane lane = boundary->lane;
    const auto after =
        phases.insert(boundary + 1, Phase{PhaseKind::Hook, lane, int(FaultSite::RestoreSlabCell)});
    phases.insert(after - 1, Phase{PhaseKind::Hook, lane, int(FaultSite::SaveSlabCell)});
}

} // namespace

void plant_in_schedule(Phases& phases, const TestAids& aids, bool fused) {
    if (aids.early_boundary()) boundary_first(phases);
    plant_peer_races(phases, aids);
    const auto pack = find(phases, PhaseKind::Pack);
    if (aids.poison_halo() && pack != phases.end())
        insert_fault(phases, pack, FaultSite::BeforePack);
    const auto unpack = find(phases, PhaseKind::Unpack);
    if (aids.drop_face() && unpack != phases.end())
        insert_fault(phases, unpack + 1, FaultSite::AfterUnpack);
    // The update stores the rank's own faces and its linked neighbours': its
    // halos filled by the last step, and what this one must overwrite.
    if (fused && (aids.poison_halo() || aids.drop_face()))
        insert_fault(phases, first_update(phases), FaultSite::BeforeUpdate, Lane::Compute);
    skip_slab_cell(phases, aids);
}

} // namespace stencil
