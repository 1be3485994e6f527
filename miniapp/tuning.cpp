#include "tuning.hpp"

#include "mpi_util.hpp"
#include "tune_on_device.hpp"
#include "tuning_cache.hpp"

#include <algorithm>
#include <cstdio>

namespace stencil {
namespace {

constexpr int kSources = 3;
const char* const kSourceNames[kSources] = {"built-in default", "cache", "tuned now"};

// Rank 0: the shape for one box extents: from the cache, or tuned now in a
// layout holding a box of those extents at its interior's corner.
template <class T>
ShapeChoice choose(TuningCache& cache, const std::array<int, 3>& e, const Layout& mine, int radius,
                   double budget_ms) {
    const TuneKey key{"wave", radius, precision_of<T>(), e};
    if (const TuneEntry* hit = cache.find(key)) return {e, hit->shape, kSourceNames[1]};
    const Layout layout(std::max(mine.nx, e[0]), std::max(mine.ny, e[1]), std::max(mine.nz, e[2]),
                        radius);
    const Box box{radius, radius + e[0], radius, radius + e[1], radius, radius + e[2]};
    const TuneResult r = dispatch_radius(radius, [&](auto rc) {
        return tune_on_device<decltype(rc)::value, T>(true, layout, box, budget_ms);
    });
    cache.put({key, r.best, r.best_ms, r.start_ms});
    return {e, r.best, kSourceNames[2]};
}

} // namespace

std::vector<ShapeChoice> apply_tuning(Simulation& sim, const Config& config) {
    const Decomposition& d = sim.decomposition();
    MPI_Comm comm = d.cart.get();
    // This rank's distinct extents, then everyone's at rank 0.
    std::vector<int> mine;
    for (const LaunchBox& b : sim.launch_boxes()) {
        const int e[3] = {b.box.nx(), b.box.ny(), b.box.nz()};
        bool seen = false;
        for (std::size_t n = 0; n < mine.size(); n += 3)
            seen = seen || std::equal(e, e + 3, mine.begin() + long(n));
        if (!seen) mine.insert(mine.end(), e, e + 3);
    }
    const int count = int(mine.size());
    std::vector<int> counts(d.size), displs(d.size), all;
    MPI_CHECK(MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm));
    if (d.rank == 0) {
        for (int r = 1; r < d.size; ++r)
            displs[r] = displs[r - 1] + counts[r - 1];
        all.resize(std::size_t(displs.back() + counts.back()));
    }
    MPI_CHECK(MPI_Gatherv(mine.data(), count, MPI_INT, all.data(), counts.data(), displs.data(),
                          MPI_INT, 0, comm));

    // Rank 0 decides: 3 extents, 4 shape fields and a source per box.
    std::vector<int> table;
    if (d.rank == 0) {
        std::vector<std::array<int, 3>> keys;
        for (std::size_t n = 0; n < all.size(); n += 3) {
            const std::array<int, 3> e{all[n], all[n + 1], all[n + 2]};
            if (std::find(keys.begin(), keys.end(), e) == keys.end()) keys.push_back(e);
        }
        const bool off = config.tuning_mode == "off" || !STENCIL_HAS_GPU;
        const std::string path =
            config.tuning_mode == "auto" ? default_tuning_cache_path() : config.tuning_mode;
        std::string note;
        TuningCache cache =
            off ? TuningCache(TuneIdentity{}) : TuningCache::load(path, current_identity(), note);
        if (!note.empty()) std::fprintf(stderr, "stencil-miniapp: %s\n", note.c_str());
        const Layout mine_layout(d.local[0], d.local[1], d.local[2], config.radius);
        const double budget_ms =
            config.tune_seconds * 1e3 / double(std::max<std::size_t>(keys.size(), 1));
        bool tuned = false;
        for (const auto& e : keys) {
            ShapeChoice c{e, Tuning{}, kSourceNames[0]};
            if (!off)
                c = dispatch_precision(config.precision, [&](auto zero) {
                    return choose<decltype(zero)>(cache, e, mine_layout, config.radius, budget_ms);
                });
            tuned = tuned || c.source == kSourceNames[2];
            const int source =
                int(std::find(kSourceNames, kSourceNames + kSources, c.source) - kSourceNames);
            table.insert(table.end(), {e[0], e[1], e[2], c.shape.block_x, c.shape.block_y,
                                       c.shape.window, c.shape.rows, source});
        }
        if (tuned)
            if (const std::string why = cache.save(path); !why.empty())
                std::fprintf(stderr, "stencil-miniapp: %s\n", why.c_str());
    }
    int size = int(table.size());
    MPI_CHECK(MPI_Bcast(&size, 1, MPI_INT, 0, comm));
    table.resize(std::size_t(size));
    MPI_CHECK(MPI_Bcast(table.data(), size, MPI_INT, 0, comm));

    // Apply, then describe this rank's boxes as they now run.
    std::vector<std::pair<std::array<int, 3>, const char*>> sources;
    for (std::size_t n = 0; n < table.size(); n += 8) {
        const std::array<int, 3> e{table[n], table[n + 1], table[n + 2]};
        const int source = table[n + 7];
        if (source != 0)
            sim.set_launch_shape(e, {table[n + 3], table[n + 4], table[n + 5], table[n + 6]});
        sources.push_back({e, kSourceNames[source]});
    }
    std::vector<ShapeChoice> choices;
    for (const LaunchBox& b : sim.launch_boxes()) {
        const std::array<int, 3> e{b.box.nx(), b.box.ny(), b.box.nz()};
        const auto it = std::find_if(sources.begin(), sources.end(),
                                     [&](const auto& s) { return s.first == e; });
        const bool listed = std::any_of(choices.begin(), choices.end(),
                                        [&](const ShapeChoice& c) { return c.extents == e; });
        if (!listed)
            choices.push_back({e, b.tuning, it == sources.end() ? kSourceNames[0] : it->second});
    }
    return choices;
}

} // namespace stencil
