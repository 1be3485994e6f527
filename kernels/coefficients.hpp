// Central second-derivative weights of order 2R, derived rather than tabulated.
//
// fornberg_weights() is Fornberg's recursion (Math. Comp. 51, 1988): the
// weights of every derivative order up to m on arbitrary nodes, computed in
// long double. For the symmetric nodes -R..R and m = 2 it yields the classic
// order-2R central stencil; the tests check it against exact rationals.
#pragma once

#include "box.hpp"

#include <array>
#include <vector>

namespace stencil {

inline constexpr int kMinRadius = 1;
inline constexpr int kMaxRadius = 8;

// Weights w[n] such that f^(derivative)(x0) ~ sum_n w[n] f(nodes[n]).
std::vector<long double> fornberg_weights(int derivative, long double x0,
                                          const std::vector<long double>& nodes);

// w[0] for the centre and w[r] for offsets +-r, r = 1..R, for unit spacing.
std::vector<long double> central_second_derivative_weights(int radius);

// Weights of the three directions, each scaled by 1/h^2, in precision T.
// Passed to kernels by value (at most 3*9 floats), so no constant-memory
// symbols need managing per radius.
template <int R, class T>
struct Coefficients {
    static_assert(R >= kMinRadius && R <= kMaxRadius, "radius must be 1..8");
    T x[R + 1], y[R + 1], z[R + 1];
    T centre; // x[0] + y[0] + z[0]: the Laplacian's weight of the centre cell
};

template <int R, class T>
Coefficients<R, T> make_coefficients(double hx, double hy, double hz) {
    const std::vector<long double> w = central_second_derivative_weights(R);
    Coefficients<R, T> c{};
    for (int r = 0; r <= R; ++r) {
        c.x[r] = T(w[r] / ((long double)hx * hx));
        c.y[r] = T(w[r] / ((long double)hy * hy));
        c.z[r] = T(w[r] / ((long double)hz * hz));
    }
    c.centre = T(c.x[0] + c.y[0] + c.z[0]);
    return c;
}

} // namespace stencil
