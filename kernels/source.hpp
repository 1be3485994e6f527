// The Ricker wavelet source, evaluated where it is added.
//
// The amplitude changes every step. If the host computed it, the launch
// that adds it would change every step too, and could not be part of a
// replayed graph. So the add kernel counts the steps itself, in one device
// word, and evaluates the wavelet for that step: the step's device work is
// then the same launch every time. The graph and the plain path run the
// same kernel, so they agree bit for bit.
#pragma once

#include "box.hpp" // STENCIL_HD

#include <cmath>

namespace stencil {

struct RickerSource {
    double dt = 0;    // time step, s
    double f0 = 0;    // peak frequency, Hz
    double t0 = 0;    // delay, s
    double scale = 0; // dt^2 / h^3: the leapfrog's weight of a point source

    // What step n adds: scale * (1 - 2a) exp(-a), a = (pi f0 (t - t0))^2, t = n dt.
    STENCIL_HD double amplitude(long long n) const {
        const double x = 3.14159265358979323846 * f0 * (double(n) * dt - t0);
        const double a = x * x;
        return scale * (1.0 - 2.0 * a) * exp(-a);
    }
};

// The cells that receive the source in one step: the owned source cell of
// the field being written, with deep halos its copies in the ghost ring a
// neighbour updates redundantly (up to two per axis where a periodic axis
// wraps a rank onto itself), and with the fused pack its copies in the
// face sinks (face_sinks.hpp) the boundary update stored before the source
// was added. Each gets the same amplitude added to the same value, so
// every copy stays bitwise the cell's. Empty on a step whose ring misses
// the source: the step count still advances.
template <class T>
struct SourceCells {
    // The cell and its images one period away on each side, along each
    // axis: 3 x 3 x 3. A rank alone along every periodic axis holds all 27
    // in its ring when the ring reaches past half the axis (R = 8, depth
    // 4, 40 cells); the fused pack's sink copies come only at depth 1,
    // where the ring is the owned box and holds no image.
    static constexpr int kMax = 27;
    int count = 0;
    T* cell[kMax] = {};

    // Appends a cell; false when full.
    bool add(T* c) {
        if (count == kMax) return false;
        cell[count++] = c;
        return true;
    }
};

} // namespace stencil
