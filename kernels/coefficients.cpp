#include "coefficients.hpp"

#include "fatal.hpp"

#include <string>

namespace stencil {

std::vector<long double> fornberg_weights(int derivative, long double x0,
                                          const std::vector<long double>& nodes) {
    const int n = int(nodes.size()) - 1;
    const int m = derivative;
    if (n < m) fatal("fornberg_weights: need more than " + std::to_string(m) + " nodes");
    // c[j][k]: weight of node j for the k-th derivative, built up node by node.
    std::vector<std::vector<long double>> c(n + 1, std::vector<long double>(m + 1, 0.0L));
    long double c1 = 1.0L;
    long double c4 = nodes[0] - x0;
    c[0][0] = 1.0L;
    for (int i = 1; i <= n; ++i) {
        const int mn = i < m ? i : m;
        long double c2 = 1.0L;
        const long double c5 = c4;
        c4 = nodes[i] - x0;
        for (int j = 0; j < i; ++j) {
            const long double c3 = nodes[i] - nodes[j];
            c2 *= c3;
            if (j == i - 1) {
                for (int k = mn; k >= 1; --k)
                    c[i][k] = c1 * (k * c[i - 1][k - 1] - c5 * c[i - 1][k]) / c2;
                c[i][0] = -c1 * c5 * c[i - 1][0] / c2;
            }
            for (int k = mn; k >= 1; --k)
                c[j][k] = (c4 * c[j][k] - k * c[j][k - 1]) / c3;
            c[j][0] = c4 * c[j][0] / c3;
        }
        c1 = c2;
    }
    std::vector<long double> weights(n + 1);
    for (int j = 0; j <= n; ++j)
        weights[j] = c[j][m];
    return weights;
}

std::vector<long double> central_second_derivative_weights(int radius) {
    if (radius < kMinRadius || radius > kMaxRadius)
        fatal("radius " + std::to_string(radius) + " is outside 1..8");
    std::vector<long double> nodes;
    for (int r = -radius; r <= radius; ++r)
        nodes.push_back(r);
    const std::vector<long double> all = fornberg_weights(2, 0.0L, nodes);
    // all[] runs over offsets -R..R; keep the centre and the +r half (the stencil is symmetric).
    std::vector<long double> half(radius + 1);
    for (int r = 0; r <= radius; ++r)
        half[r] = all[radius + r];
    return half;
}

} // namespace stencil
