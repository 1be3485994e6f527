// The absorbing sponge: a damping rate eta that grows quadratically from 0 at
// the sponge's inner edge to `strength` at the outer boundary of the global
// grid. It is computed from global coordinates inside the kernel, so it costs
// arithmetic but no memory traffic, and every rank computes the same value
// for the same global cell whatever the decomposition.
#pragma once

#include "box.hpp"

namespace stencil {

struct Sponge {
    int width = 0;             // cells; 0 switches the sponge off
    float strength = 0.0f;     // eta at the outermost cell
    int offset[3] = {0, 0, 0}; // global index of this rank's first interior cell
    int extent[3] = {0, 0, 0}; // global interior cells per direction
    int halo = 0;              // local index of the first interior cell (the halo width)

    // Damping rate of local cell (i,j,k), computed in the precision T of
    // the update that uses it: a float profile would put float rounding
    // (and the device's fused multiply-adds, which the host does not use)
    // into a double run.
    template <class T>
    STENCIL_HD T eta(int i, int j, int k) const {
        if (width == 0) return T(0);
        const int local[3] = {i, j, k};
        T sum = T(0);
        for (int d = 0; d < 3; ++d) {
            const int g = local[d] - halo + offset[d];
            const int from_edge = g < extent[d] - 1 - g ? g : extent[d] - 1 - g;
            if (from_edge < width) {
                const T t = T(width - from_edge) / T(width);
                sum += T(strength) * t * t;
            }
        }
        return sum;
    }
};

} // namespace stencil
