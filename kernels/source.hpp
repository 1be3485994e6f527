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
#include "layout.hpp"

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

// The source added by the update that computes its cells, in the same
// launch, instead of by a launch of its own after it (launch_add_source):
// at a small box a step takes a few microseconds, and a second launch a
// step adds about one (docs/scaling/SMALL-BOXES.md). Both bodies take it.
// The cells body adds the amplitude to an image's value before it stores
// the value and copies it into the face sinks; the tile, after its walk,
// reads back each image among the cells its thread stored, adds, stores
// and copies it (SourceInLaunch::meets, add_within). Either way the cell
// and every copy get the one addition the separate launch makes, with the
// same bits. It comes as a table in device memory, as the face sinks do:
// passed by value, its images took 81 scalar registers of an AMD kernel's
// arguments, and HIP 5.2 spilled 421 of them (its hull alone goes by
// value: SourceInLaunch). `steps_out` null: this rank adds no source, and
// keeps no count.
//
// The step count lives in two words: a step reads the one the step before
// wrote and writes the other (in the launch, one thread), so no thread of
// the launch reads a word another writes. Which word a step reads follows
// the array it writes (miniapp/step/step_source.hpp: StepSource), as the
// captured graphs do.
template <class T>
struct SourceInUpdate {
    static constexpr int kMax = SourceCells<T>::kMax;
    int count = 0;
    int cell[kMax][3] = {};     // the images in the updated box, in the layout's indices
    Box hull{0, 0, 0, 0, 0, 0}; // the smallest box holding them; a row outside pays one test
    RickerSource source;
    const long long* steps_in = nullptr; // the steps added before this one
    long long* steps_out = nullptr;      // where this step leaves the count

    // Appends an image; false when full.
    bool add(int i, int j, int k) {
        if (count == kMax) return false;
        cell[count][0] = i, cell[count][1] = j, cell[count][2] = k;
        hull = count == 0 ? Box{i, i + 1, j, j + 1, k, k + 1}
                          : Box{i < hull.x0 ? i : hull.x0, i + 1 > hull.x1 ? i + 1 : hull.x1,
                                j < hull.y0 ? j : hull.y0, j + 1 > hull.y1 ? j + 1 : hull.y1,
                                k < hull.z0 ? k : hull.z0, k + 1 > hull.z1 ? k + 1 : hull.z1};
        ++count;
        return true;
    }
    // Adds the step's amplitude to each image inside `cells` of the field at
    // `origin`, read back and stored again, and then calls stored(cell) with
    // the image's one-cell box: for an update that adds the source after it
    // has stored its cells (the tile).
    template <class Stored>
    STENCIL_HD void add_within(T* origin, const Layout& layout, const Box& cells,
                               Stored&& stored) const {
        const T amplitude = T(source.amplitude(*steps_in));
        for (int c = 0; c < count; ++c) {
            const int i = cell[c][0], j = cell[c][1], k = cell[c][2];
            if (i < cells.x0 || i >= cells.x1 || j < cells.y0 || j >= cells.y1 || k < cells.z0 ||
                k >= cells.z1)
                continue;
            origin[layout.index(i, j, k)] += amplitude;
            stored(Box{i, i + 1, j, j + 1, k, k + 1});
        }
    }
    // Adds the step's amplitude to each image among those cells, `values`
    // their values in order (values[q] is cell i + q): once, as the
    // separate launch's `*cell += amplitude`.
    template <int Lanes>
    STENCIL_HD void add_to(T (&values)[Lanes], int i, int j, int k) const {
        const T amplitude = T(source.amplitude(*steps_in));
        // The images one after another (a thread here is rare); the lanes
        // unrolled, so that constant indices keep the values in registers.
        for (int c = 0; c < count; ++c)
            if (cell[c][1] == j && cell[c][2] == k)
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#pragma unroll
#endif
                for (int q = 0; q < Lanes; ++q)
                    if (cell[c][0] == i + q) values[q] += amplitude;
    }
};

// What a launch of the update is handed of the source: the table in device
// memory (null: none), and by value the hull and count every thread asks
// about. Read from the table, they were a load every thread of the cells
// body waited for: 0.4 us of a 3.7 us update at 64^3 on an H100. By
// value, only a thread whose cells hold an image reads the table, and the
// mini-app's 64^3 step took 4.82 us, not 5.16
// (docs/data/small-box-body-2026-12-06/, call 5).
template <class T>
struct SourceInLaunch {
    const SourceInUpdate<T>* table = nullptr;
    Box hull{0, 0, 0, 0, 0, 0}; // the images' hull, as the table's
    int count = 0;

    SourceInLaunch() = default;
    // `device` the table in device memory, `host` its copy on the host.
    SourceInLaunch(const SourceInUpdate<T>* device, const SourceInUpdate<T>& host)
        : table(device), hull(host.hull), count(host.count) {}
    STENCIL_HD explicit operator bool() const { return table != nullptr; }

    // Whether the cells [i, i + lanes) of row j, plane k hold an image.
    STENCIL_HD bool touches(int i, int lanes, int j, int k) const {
        return j >= hull.y0 && j < hull.y1 && k >= hull.z0 && k < hull.z1 && i < hull.x1 &&
               i + lanes > hull.x0;
    }
    // Whether `cells` may hold an image: the hull's test, for a whole block.
    STENCIL_HD bool meets(const Box& cells) const {
        return count > 0 && cells.x0 < hull.x1 && cells.x1 > hull.x0 && cells.y0 < hull.y1 &&
               cells.y1 > hull.y0 && cells.z0 < hull.z1 && cells.z1 > hull.z0;
    }
};

} // namespace stencil
