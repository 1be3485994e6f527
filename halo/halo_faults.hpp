// The faults planted in a halo exchange, on purpose, so that the tests can
// show --check, the NaN check and the poisoned halos catch them
// (--poison-halo, --inject-fault drop-face, short-fused-pack and
// peer-wrong-face). The one
// place in halo/ that knows of them: the exchange carries no hook, and the
// step calls these where its schedule has a planted Fault phase
// (miniapp/testing/planted_phases.hpp).
#pragma once

#include "halo_exchange.hpp"

namespace stencil {

struct HaloFaultSet {
    bool poison = false;           // NaN in every halo cell to be filled, before it is
    bool drop_face = false;        // the first received face zeroed after it arrives
    bool short_fused_pack = false; // the fused pack's first face stored one cell short
    bool wrong_face = false;       // two faces of one shape stored into each other's halo
};

template <class T>
class HaloFaults {
public:
    // Plants the short fused pack into `exchange` at once; the others strike
    // when the step calls them.
    HaloFaults(HaloExchange<T>& exchange, const HaloFaultSet& set);
    // Whether the short fused pack was planted: false where this rank's
    // slabs store no face (z faces go in place).
    bool short_fused_pack_planted() const { return short_planted_; }
    bool wrong_face_planted() const { return wrong_planted_; }

    // On the exchange's halo stream. Before the pack: NaN over every halo
    // cell a message fills (the poison must not survive the exchange).
    void before_pack(FieldView<T> field, FieldView<T> previous);
    // After the unpack (a separate pack): the first received face zeroed.
    void after_unpack(FieldView<T> field, FieldView<T> previous);
    // Before the slabs of the fused pack, which fill the rank's own halos of
    // `next`: NaN over those (poison), and the first received face zeroed.
    void before_boundary(FieldView<T> field, FieldView<T> next);

private:
    void drop_first_face(FieldView<T> field, FieldView<T> previous);
    void swap_first_pair(FaceSinks<T>& sinks);
    HaloExchange<T>& exchange_;
    HaloFaultSet set_;
    bool short_planted_ = false;
    bool wrong_planted_ = false;
};

} // namespace stencil
