#include "testing/step_aids.hpp"

#include "halo_faults.hpp"
#include "memory.hpp"
#include "step_counts.hpp"
#include "testing/planted_phases.hpp"

#include <algorithm>
#include <utility>

namespace stencil {
namespace {

// One rank's planted bugs in precision T: its step calls these at setup
// and at each Hook phase that plant_in_schedule added.
template <class T>
class PlantedFaultHooks final : public StepHooks<T> {
public:
    PlantedFaultHooks(const TestAids& aids, std::shared_ptr<PlantedFaults> planted)
        : aids_(aids), planted_(std::move(planted)) {}

    void box_grown(Box& box, const std::array<bool, 6>& sides) override {
        if (aids_.short_ring()) shorten_grown_box(box, sides);
    }
    void parts_ready(const StepParts<T>& parts) override;
    void schedule_made(std::vector<Phase>& phases) override;
    void at_phase(int hook_point, FieldView<T> p, FieldView<T> next, Stream& stream) override;

private:
    TestAids aids_;
    std::shared_ptr<PlantedFaults> planted_;
    FaceRoutes<T>* routes_ = nullptr; // the step's, which outlives its hooks
    std::unique_ptr<HaloFaults<T>> faults_;
    int rank_ = 0;
    bool has_slabs_ = false;
    bool exchange_step_ = true; // the next list made is the exchange step's
    // skip-slab-cell: the slab cell nearest the source, and its kept value.
    std::array<int, 3> slab_cell_{};
    DeviceArray<T> skipped_cell_{1};
};

// skip-slab-cell's cell: the slab cell nearest the source, which the wave
// reaches first (a cell it has not reached is zero at every step, and
// skipping it would change nothing).
template <class T>
std::array<int, 3> slab_cell_nearest_source(const StepParts<T>& parts) {
    std::array<int, 3> best{}, source{};
    for (std::size_t a = 0; a < 3; ++a)
        source[a] = parts.physics.source[a] - parts.decomposition.offset[a] + parts.layout.halo;
    long long best_distance = -1;
    for (const LaunchBox& slab : parts.slabs) {
        const Box& b = slab.box;
        const int lo[3] = {b.x0, b.y0, b.z0}, hi[3] = {b.x1 - 1, b.y1 - 1, b.z1 - 1};
        std::array<int, 3> cell{};
        long long distance = 0;
        for (std::size_t a = 0; a < 3; ++a) {
            cell[a] = std::clamp(source[a], lo[a], hi[a]);
            distance += (long long)(cell[a] - source[a]) * (cell[a] - source[a]);
        }
        if (best_distance < 0 || distance < best_distance) best = cell, best_distance = distance;
    }
    return best;
}

template <class T>
void PlantedFaultHooks<T>::parts_ready(const StepParts<T>& parts) {
    routes_ = &parts.routes;
    rank_ = parts.decomposition.rank;
    has_slabs_ = !parts.slabs.empty();
    if (has_slabs_) slab_cell_ = slab_cell_nearest_source(parts);
    const HaloFaultSet set{aids_.poison_halo(), aids_.drop_face(), aids_.short_fused_pack(),
                           aids_.peer_wrong_face(), aids_.peer_wrong_level()};
    if (set.poison || set.drop_face || set.short_fused_pack || set.wrong_face || set.wrong_level)
        faults_ = std::make_unique<HaloFaults<T>>(parts.routes, set);
    PlantedFaults& p = *planted_;
    p = PlantedFaults{};
    if (faults_) {
        p.short_fused_pack = faults_->short_fused_pack_planted();
        p.wrong_face = faults_->wrong_face_planted();
        p.wrong_level = faults_->wrong_level_planted();
        p.halos = faults_->poison_planted();
        p.drop_face = faults_->drop_planted();
    }
    const bool moves_data = parts.routes.messages().moves_data();
    p.short_ring = !parts.ring.empty();
    p.races = parts.routes.linked_faces() > 0;
    p.races_beside_messages = p.races && moves_data;
    p.early_boundary = parts.overlapped && moves_data;
}

template <class T>
void PlantedFaultHooks<T>::schedule_made(std::vector<Phase>& phases) {
    plant_in_schedule(phases, aids_, routes_->stores_faces());
    if (!exchange_step_) return;
    exchange_step_ = false;
    for (const Phase& phase : phases)
        planted_->slab_cell =
            planted_->slab_cell || (phase.kind == PhaseKind::Hook &&
                                    phase.hook_point == int(FaultSite::SaveSlabCell) && has_slabs_);
}

template <class T>
void PlantedFaultHooks<T>::at_phase(int hook_point, FieldView<T> p, FieldView<T> next,
                                    Stream& stream) {
    const auto site = FaultSite(hook_point);
    if (site == FaultSite::StallStores && aids_.stalls_stores(rank_))
        launch_delay(TestAids::kPeerStallMicroseconds, stream);
    if ((site == FaultSite::SaveSlabCell || site == FaultSite::RestoreSlabCell) && has_slabs_) {
        T* cell = next.ptr(slab_cell_[0], slab_cell_[1], slab_cell_[2]);
        if (site == FaultSite::SaveSlabCell)
            copy_async(skipped_cell_.data(), cell, sizeof(T), stream);
        else
            copy_async(cell, skipped_cell_.data(), sizeof(T), stream);
    }
    if (!faults_) return;
    if (site == FaultSite::BeforePack) faults_->before_pack(p, next, stream);
    if (site == FaultSite::AfterUnpack) faults_->after_unpack(p, next, stream);
    if (site == FaultSite::BeforeUpdate) faults_->before_update(p, next, stream);
}

} // namespace

std::unique_ptr<StepHooks<float>> TestAidHooks::make(float) const {
    return std::make_unique<PlantedFaultHooks<float>>(aids_, planted_);
}

std::unique_ptr<StepHooks<double>> TestAidHooks::make(double) const {
    return std::make_unique<PlantedFaultHooks<double>>(aids_, planted_);
}

void shorten_grown_box(Box& box, const std::array<bool, 6>& sides) {
    int* lo[3] = {&box.x0, &box.y0, &box.z0};
    int* hi[3] = {&box.x1, &box.y1, &box.z1};
    for (std::size_t a = 0; a < 3; ++a) {
        if (sides[2 * a]) {
            *lo[a] += 1;
            return;
        }
        if (sides[2 * a + 1]) {
            *hi[a] -= 1;
            return;
        }
    }
}

} // namespace stencil
