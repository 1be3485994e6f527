#include "step/tuning.hpp"

#include "gpu_runtime.hpp"
#include "mpi_util.hpp"
#include "tuning_cache.hpp"

#include <algorithm>
#include <cstdio>
#include <type_traits>

namespace stencil {
namespace {

using Extents = std::array<int, 3>;

Extents extents_of(const Box& b) {
    return {b.nx(), b.ny(), b.nz()};
}

// Rank 0: the wave's shape for boxes of extents `e`, from the cache or tuned
// now in a layout that holds such a box at its interior's corner (at least
// this rank's own local grid, so strides are as in the run).
TunedShape choose(TuningCache& cache, const Extents& e, const Options& options,
                  const Extents& local, double budget_ms) {
    const int R = options.radius;
    const Layout layout(std::max(local[0], e[0]), std::max(local[1], e[1]),
                        std::max(local[2], e[2]), R);
    const Box box{R, R + e[0], R, R + e[1], R, R + e[2]};
    return dispatch_precision(options.precision, [&](auto zero) {
        return dispatch_radius(R, [&](auto rc) {
            return cached_or_tuned<decltype(rc)::value, decltype(zero)>(cache, FusedKernel::Wave,
                                                                        layout, box, budget_ms);
        });
    });
}

// Rank 0's decision for every distinct box extents in `all` (3 ints each),
// from the cache or tuned now (and the cache saved); empty with --tuning
// off or on HOST.
std::vector<ShapeChoice> decide_shapes(const std::vector<int>& all, const Options& options,
                                       const Decomposition& d) {
    std::vector<ShapeChoice> table;
    // The HOST back-end's loops have no launch shape to tune (said as a
    // note: advice, which --quiet leaves out).
    if (options.tuning_mode != "off" && !STENCIL_HAS_GPU && !options.quiet)
        std::fprintf(stderr,
                     "note: --tuning %s: the HOST back-end has no launch shapes; nothing to tune\n",
                     options.tuning_mode.c_str());
    if (options.tuning_mode == "off" || !STENCIL_HAS_GPU) return table;
    std::vector<Extents> keys;
    for (std::size_t n = 0; n < all.size(); n += 3) {
        const Extents e{all[n], all[n + 1], all[n + 2]};
        if (std::find(keys.begin(), keys.end(), e) == keys.end()) keys.push_back(e);
    }
    const std::string path =
        options.tuning_mode == "auto" ? default_tuning_cache_path() : options.tuning_mode;
    std::string note;
    TuningCache cache = TuningCache::load(path, current_identity(), note);
    if (!note.empty()) std::fprintf(stderr, "stencil-miniapp: %s\n", note.c_str());
    const double budget_ms = options.tune_seconds * 1e3 / double(keys.size());
    bool tuned = false;
    for (const Extents& e : keys) {
        const TunedShape c =
            choose(cache, e, options, {d.local[0], d.local[1], d.local[2]}, budget_ms);
        tuned = tuned || c.source == ShapeSource::TunedNow;
        table.push_back({e, c.shape, c.source});
    }
    if (tuned)
        if (const std::string why = cache.save(path); !why.empty())
            std::fprintf(stderr, "stencil-miniapp: %s\n", why.c_str());
    return table;
}

// Applies the table's shapes, then describes this rank's distinct boxes as
// they now run.
std::vector<ShapeChoice> apply_shapes(LaunchShapes& run, const std::vector<ShapeChoice>& table) {
    for (const ShapeChoice& t : table)
        if (t.source != ShapeSource::BuiltIn) run.set_launch_shape(t.extents, t.shape);
    std::vector<ShapeChoice> choices;
    for (const LaunchBox& b : run.launch_boxes()) {
        const Extents e = extents_of(b.box);
        if (std::any_of(choices.begin(), choices.end(),
                        [&](const ShapeChoice& c) { return c.extents == e; }))
            continue;
        ShapeSource source = ShapeSource::BuiltIn;
        for (const ShapeChoice& t : table)
            if (t.extents == e) source = t.source;
        choices.push_back({e, b.shape, source});
    }
    return choices;
}

} // namespace

std::vector<ShapeChoice> apply_tuning(LaunchShapes& run, const Decomposition& d,
                                      const Options& options) {
    MPI_Comm comm = d.cart.get();
    // Every rank's box extents, at rank 0 (repeats are harmless).
    std::vector<int> mine;
    for (const LaunchBox& b : run.launch_boxes()) {
        const Extents e = extents_of(b.box);
        mine.insert(mine.end(), e.begin(), e.end());
    }
    const std::vector<int> all = gather_to_root(comm, mine);
    std::vector<ShapeChoice> table =
        d.rank == 0 ? decide_shapes(all, options, d) : std::vector<ShapeChoice>{};
    // Whole choices as bytes: every rank runs the same binary, and a field
    // added to LaunchShape travels without a change here.
    static_assert(std::is_trivially_copyable_v<ShapeChoice>);
    int size = int(table.size());
    MPI_CHECK(MPI_Bcast(&size, 1, MPI_INT, 0, comm));
    table.resize(std::size_t(size));
    MPI_CHECK(MPI_Bcast(table.data(), size * int(sizeof(ShapeChoice)), MPI_BYTE, 0, comm));
    return apply_shapes(run, table);
}

} // namespace stencil
