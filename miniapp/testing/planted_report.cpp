// What the test aids planted, across the ranks: the bugs that strike
// nowhere as the run is set up (a --check that passes then proves nothing,
// so it is said), and those that change the field somewhere (its
// provenance then says it is not the one-domain answer).
#include "testing/step_aids.hpp"

#include "config/warnings.hpp"
#include "halo_path.hpp"
#include "mpi_util.hpp"

namespace stencil {
namespace {

bool on_any_rank(bool mine) {
    int local = mine ? 1 : 0, any = 0;
    MPI_CHECK(MPI_Allreduce(&local, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
    return any != 0;
}

} // namespace

void TestAidHooks::warn_where_nothing_planted() const {
    const TestAids& aids = aids_;
    const PlantedFaults& p = planted();
    const struct {
        bool asked, planted;
        std::string needs;
    } faults[] = {
        {aids.short_fused_pack(), p.short_fused_pack,
         "short-fused-pack plants nothing: no rank's boundary kernels store a face (" +
             fused_pack_needs() + "; z faces go in place)"},
        {aids.peer_wrong_face(), p.wrong_face,
         "peer-wrong-face plants nothing: no rank's update stores two faces of one shape (a face "
         "and its opposite: a periodic axis, or three ranks along one)"},
        {aids.peer_wrong_level(), p.wrong_level,
         "peer-wrong-level plants nothing: no rank has a face linked to a neighbour on its node "
         "(--comm peer)"},
        {aids.skip_slab_cell(), p.slab_cell,
         "skip-slab-cell plants nothing: no rank updates boundary slabs (overlap off, or no "
         "neighbour)"},
        {aids.short_ring(), p.short_ring,
         "short-ring plants nothing: no rank updates a deep halo's ring (halo depth 1: ask for "
         "--halo-depth 2 or more; --comm peer runs at depth 1)"},
        {aids.peer_skip_wait() || aids.peer_early_signal(), p.races,
         "peer-skip-wait and peer-early-signal plant nothing: no rank has a face linked to a "
         "neighbour on its node (--comm peer)"},
        {aids.early_boundary(), p.early_boundary,
         "early-boundary plants nothing: no rank runs boundary slabs after an exchange (overlap "
         "off, --comm none, or every face stored by the update)"},
        {aids.drop_face(), p.drop_face,
         "drop-face plants nothing: no rank's first face has a halo that anything fills "
         "(--comm none, or no neighbour)"},
        {aids.poison_halo(), p.halos,
         "--poison-halo poisons nothing: no rank has a halo the exchange fills or a face of its "
         "own the update stores"},
    };
    for (const auto& f : faults)
        if (f.asked && !on_any_rank(f.planted))
            print_warnings({(f.needs.rfind("--", 0) == 0 ? "" : "--inject-fault ") + f.needs});
    // The two races are caught by timing: where a rank's step also waits for
    // messages, that wait may order the linked writes, and a pass proves little.
    if ((aids.peer_skip_wait() || aids.peer_early_signal()) && on_any_rank(p.races_beside_messages))
        print_warnings({"--inject-fault peer-skip-wait and peer-early-signal plant races that a "
                        "step's wait for messages may hide (a rank here has faces both linked and "
                        "sent): a pass does not clear the link path; plant them where every face "
                        "is linked or the rank's own"});
}

std::vector<std::string> TestAidHooks::field_bugs() const {
    const TestAids& aids = aids_;
    const PlantedFaults& p = planted();
    if (aids.planted().empty()) return {}; // every rank alike: the ranks agree on their options
    const std::pair<bool, const char*> bugs[] = {
        {aids.drop_face() && p.drop_face, "drop-face"},
        {aids.short_ring() && p.short_ring, "short-ring"},
        {aids.short_fused_pack() && p.short_fused_pack, "short-fused-pack"},
        {aids.early_boundary() && p.early_boundary, "early-boundary"},
        {aids.peer_skip_wait() && p.races, "peer-skip-wait"},
        {aids.peer_early_signal() && p.races, "peer-early-signal"},
        {aids.peer_wrong_face() && p.wrong_face, "peer-wrong-face"},
        {aids.peer_wrong_level() && p.wrong_level, "peer-wrong-level"},
        {aids.skip_slab_cell() && p.slab_cell, "skip-slab-cell"},
    };
    std::vector<std::string> found;
    for (const auto& [planted, name] : bugs)
        if (on_any_rank(planted)) found.push_back(std::string("--inject-fault ") + name);
    // The NaN strikes after TestAids::kFaultStep, which a run that does not
    // reach it is refused for (TestAids::reach_problem).
    if (aids.nan_at(TestAids::kFaultStep)) found.push_back("--inject-fault nan");
    return found;
}

} // namespace stencil
