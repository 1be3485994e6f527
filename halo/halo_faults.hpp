// The faults planted in a rank's face routes, on purpose, so that the
// tests can show --check, the NaN check and the poisoned halos catch them
// (--poison-halo, --inject-fault drop-face, short-fused-pack,
// peer-wrong-face and peer-wrong-level). The one place in halo/ that knows
// of them: the routes carry no hook, and the test aids' step hook calls
// these at the Hook phases it plants (miniapp/testing/step_aids.cpp).
// They see the routes through their public read-only views
// (FaceRoutes::sink_tables and routed_faces, HaloExchange::received) and
// hand the planted sink tables back (FaceRoutes::replace_sinks). They build
// into a library of their own, stencil_halo_faults, which only the test
// aids' step hook (miniapp/testing) and the tests link.
#pragma once

#include "face_routes.hpp"

#include <cstddef>

namespace stencil {

struct HaloFaultSet {
    bool poison = false;           // NaN in every halo cell to be filled, before it is
    bool drop_face = false;        // the first face's halo zeroed once it is filled
    bool short_fused_pack = false; // the first face the update stores, one cell short
    bool wrong_face = false;       // two faces of one shape stored into each other's halo
    bool wrong_level = false;      // a linked face stored into the time level the neighbour reads
};

template <class T>
class HaloFaults {
public:
    // Plants the faults in the sinks into `routes` at once; the others
    // strike when the step calls them.
    HaloFaults(FaceRoutes<T>& routes, const HaloFaultSet& set);
    // Whether the sink faults were planted: false where this rank's update
    // stores no face (z faces of messages go in place), no two faces of one
    // shape, or no linked face.
    bool short_fused_pack_planted() const { return short_planted_; }
    bool wrong_face_planted() const { return wrong_planted_; }
    bool wrong_level_planted() const { return level_planted_; }
    // Whether --poison-halo has a halo to poison (one the exchange fills,
    // or the rank's own the update stores), and drop-face a filled face.
    bool poison_planted() const;
    bool drop_planted() const { return first_face_ && first_face_filled_; }

    // Each on `stream`. Before the pack: NaN over every halo cell the
    // exchange fills (the poison must not survive the exchange).
    void before_pack(FieldView<T> field, FieldView<T> previous, Stream& stream);
    // After the unpack: the first face's halo zeroed, where the exchange
    // filled it.
    void after_unpack(FieldView<T> field, FieldView<T> previous, Stream& stream);
    // Before the step's first update: NaN over the rank's own halos of
    // `next` that the update stores into (poison), and the first face's
    // halo zeroed where the last update stored it (self or linked).
    void before_update(FieldView<T> field, FieldView<T> next, Stream& stream);

private:
    void drop_first_face(FieldView<T> field, FieldView<T> previous, Stream& stream);
    void swap_first_pair(FaceSinks<T>& sinks);
    FaceRoutes<T>& routes_;
    HaloFaultSet set_;
    bool short_planted_ = false;
    bool wrong_planted_ = false;
    bool level_planted_ = false;
    // The face drop-face zeroes (the plan's first face), and whether an
    // update stores it rather than the exchange filling it.
    const HaloMessage* first_face_ = nullptr;
    bool first_face_stored_ = false;
    bool first_face_filled_ = false; // stored, or filled by the exchange (not --comm none's)
};

} // namespace stencil
