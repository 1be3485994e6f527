// SimulationOf<T>'s setup: the boxes of a step (and of the deep-halo
// cycle), the source's cells, the fields and the velocity, the exchange,
// and the update with its radius fixed.
#include "config/model_file.hpp"
#include "step/simulation.hpp"
#include "step/simulation_impl.hpp"
#include "step/step_boxes.hpp"

#include "field_ops.hpp"
#include "stencil.hpp"

#include <algorithm>
#include <cmath>

namespace stencil {

template <class T>
void SimulationOf<T>::setup_boxes() {
    // The interior leaves to the slabs only the sides whose halo arrives
    // during the step; a face the last update stored is in already.
    const std::array<bool, 6> sides = routes_->exchanged_sides();
    const int x_depth =
        slab_x_depth(options_.slab_x, depth_ * options_.radius, layout_.nx, precision_of<T>());
    const StepBoxes boxes = step_boxes(layout_, options_.radius, depth_, sides, x_depth,
                                       [&](Box& grown) { hooks_->box_grown(grown, sides); });
    boxes_.whole.box = boxes.whole;
    boxes_.inner.box = boxes.inner;
    for (const Box& b : boxes.slabs)
        boxes_.slabs.push_back({b, LaunchShape{}, slab_kernel(layout_, b, kLanes<T>, x_depth)});
    for (const Box& b : boxes.rings)
        boxes_.ring.push_back({b, LaunchShape{}});
    boxes_.overlapped = plan_.overlap && !boxes_.slabs.empty();
}

template <class T>
void SimulationOf<T>::setup_routes() {
    // The update stores the faces (the fused pack) where the plan asks for
    // it: with overlap on, the slabs those of the next messages and the
    // interior the rest; where no face travels as a message (a rank alone,
    // or peer on one node), one kernel a step stores them all. With overlap
    // off and messages, a pack launch packs what travels and the exchange
    // copies a rank's own faces: the whole-box kernel stores only the faces
    // laid out as the field, directly (kernels/face_sinks.hpp). A linked
    // face is always stored by the update that computes it (face_routes.hpp).
    const bool stores =
        plan_.fused_pack && (plan_.overlap || route_plan(options_, plan_).every_face_stored());
    routes_ =
        std::make_unique<FaceRoutes<T>>(d_, layout_, options_.radius, depth_, plan_.comm_mode,
                                        fields_->arrays(), halo_, stores, fields_->link_memory());
}

template <class T>
void SimulationOf<T>::setup_source() {
    std::vector<std::vector<std::array<int, 3>>> images;
    for (int s = 0; s < depth_; ++s) {
        const Box& box = s == 0 ? boxes_.whole.box : boxes_.ring[std::size_t(s - 1)].box;
        images.push_back(
            source_images(physics_.source, d_.offset, d_.global, d_.periodic, layout_.halo, box));
    }
    const RickerSource ricker{physics_.dt, physics_.f0, physics_.t0,
                              physics_.dt * physics_.dt / std::pow(options_.spacing, 3)};
    source_ = std::make_unique<StepSource<T>>(
        ricker, images, std::array<FieldView<T>, 2>{fields_->view(0), fields_->view(1)}, *routes_);
}

template <class T>
void SimulationOf<T>::setup_fields() {
    // Device memory first: if it does not fit, the allocator says how much
    // was asked for and how much is free, before any host staging is made.
    Communicator node;
    if (route_plan(options_, plan_).shares_node_memory())
        node = Communicator(split_node(d_.cart.get(), plan_.ranks_per_node));
    fields_ = std::make_unique<WaveFields<T>>(layout_, std::move(node));
    std::vector<T> host(layout_.allocation(), T(0));
    // dt^2 c^2 everywhere, the halo included: deep halos update a ring of
    // it, which must see the owner's values (wrapped along a periodic z).
    const FieldView<T> v = view_of(host.data(), layout_);
    const double dt = physics_.dt;
    const int nz = d_.global[2];
    if (options_.model == ModelKind::File) {
        // The rank's box and its halo, read from the file (model_file.hpp).
        const std::vector<double> speed = read_model_box(options_, plan_, d_, layout_.halo);
        std::size_t n = 0;
        for (int k = 0; k < layout_.pz(); ++k)
            for (int j = 0; j < layout_.py(); ++j)
                for (int i = 0; i < layout_.px(); ++i)
                    v(i, j, k) = T(std::pow(speed[n++] * dt, 2));
        fields_->set_velocity(host.data());
        return;
    }
    for (int k = 0; k < layout_.pz(); ++k) {
        const int g = k - layout_.halo + d_.offset[2];
        const int gk = d_.periodic[2] ? (g % nz + nz) % nz : std::min(std::max(g, 0), nz - 1);
        const T value = T(std::pow(velocity_at(options_.model, gk, d_.global[2]) * dt, 2));
        for (int j = 0; j < layout_.py(); ++j)
            for (int i = 0; i < layout_.px(); ++i)
                v(i, j, k) = value;
    }
    fields_->set_velocity(host.data());
}

template <class T>
SimulationOf<T>::SimulationOf(const RunContext& run, MPI_Comm comm, const StepHookMaker* hooks)
    : options_(run.options), plan_(run.plan), physics_(run.physics),
      d_(decompose(comm, plan_.grid, plan_.procs, options_.periodic)),
      depth_(std::max(plan_.halo_depth, 1)), clock_(depth_),
      layout_(d_.local[0], d_.local[1], d_.local[2], depth_ * options_.radius),
      hooks_(hooks ? hooks->make(T{}) : std::make_unique<StepHooks<T>>()) {
    setup_fields();
    setup_routes();
    setup_boxes();
    hooks_->parts_ready(
        {d_, layout_, physics_, *routes_, boxes_.slabs, boxes_.ring, boxes_.overlapped});
    setup_update(plan_.grid);
    // Auto: graphs where they measured faster (docs/performance-history.md,
    // "Merged launches and graphs"): steps with nothing to exchange or with
    // NCCL, one graph each; not MPI exchanges, whose two graphs ran 0.5-10%
    // slower than plain launches on 2 x H200 from 256^3 per GPU.
    setup_schedules();
    use_graphs_ =
        options_.graphs == GraphChoice::On ||
        (options_.graphs == GraphChoice::Auto && graphs_available() && !exchange().host_between());
    shapes_changed();
}

template <class T>
void SimulationOf<T>::setup_update(const std::array<int, 3>& global) {
    const int R = options_.radius;
    Sponge sponge;
    sponge.width = options_.sponge;
    sponge.strength = physics_.sponge_strength;
    sponge.halo = layout_.halo;
    for (int a = 0; a < 3; ++a)
        sponge.offset[a] = d_.offset[a], sponge.extent[a] = global[a];
    setup_source();
    // The one run-time to compile-time radius switch of the time loop.
    const double h = options_.spacing;
    update_ = dispatch_radius(R, [&](auto radius) -> UpdateFn {
        constexpr int RR = decltype(radius)::value;
        const auto c = make_coefficients<RR, T>(h, h, h);
        for (LaunchBox* u : {&boxes_.whole, &boxes_.inner})
            u->shape = wave_shape<RR, T>(options_.shape, layout_, u->box);
        for (LaunchBox& u : boxes_.ring)
            u.shape = wave_shape<RR, T>(options_.shape, layout_, u.box);
        for (LaunchBox& u :
             boxes_.slabs) // their kernel's default shapes; --block is the interior's
            u.shape = slab_shape<RR, T>(layout_, u.box, u.kernel);
        update_tables_ = [c, sponge](FieldView<const T> p, FieldView<T> prev, FieldView<const T> v,
                                     const std::vector<WaveTable>& tables,
                                     const FaceSinks<T>& sinks, Stream& stream) {
            launch_wave_boxes<RR, T>(p, prev, v, tables, c, sponge, stream, sinks);
        };
        return [c, sponge](FieldView<const T> p, FieldView<T> prev, FieldView<const T> v,
                           const LaunchBox& u, const FaceSinks<T>* sinks, SourceInLaunch<T> source,
                           Stream& stream) {
            launch_wave_step<RR, T>(p, prev, v, u.box, c, sponge, stream, u.shape, sinks, source);
        };
    });
}

// The members defined in this file, for both precisions (the class is
// instantiated in simulation.cpp alone; see simulation_queries.cpp).
#define STENCIL_SETUP_MEMBERS(T)                                                                   \
    template SimulationOf<T>::SimulationOf(const RunContext&, MPI_Comm, const StepHookMaker*);     \
    template void SimulationOf<T>::setup_boxes();                                                  \
    template void SimulationOf<T>::setup_routes();                                                 \
    template void SimulationOf<T>::setup_source();                                                 \
    template void SimulationOf<T>::setup_fields();                                                 \
    template void SimulationOf<T>::setup_update(const std::array<int, 3>&);
STENCIL_SETUP_MEMBERS(float)
STENCIL_SETUP_MEMBERS(double)

} // namespace stencil
