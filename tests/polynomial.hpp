// Random trivariate polynomials with exact second derivatives: the
// finite-difference operators of radius R must reproduce them to rounding
// when the total degree is at most 2R+1.
#pragma once

#include <cmath>
#include <random>
#include <vector>

namespace stencil::test {

class Polynomial {
public:
    Polynomial(int degree, std::mt19937_64& rng) {
        std::uniform_real_distribution<double> coef(-1.0, 1.0);
        for (int a = 0; a <= degree; ++a)
            for (int b = 0; a + b <= degree; ++b)
                for (int c = 0; a + b + c <= degree; ++c)
                    terms_.push_back({a, b, c, coef(rng)});
    }

    double value(double x, double y, double z) const { return eval(x, y, z, -1); }
    // d^2/dx_axis^2, axis 0..2.
    double second(int axis, double x, double y, double z) const { return eval(x, y, z, axis); }
    double laplacian(double x, double y, double z) const {
        return second(0, x, y, z) + second(1, x, y, z) + second(2, x, y, z);
    }

private:
    struct Term {
        int a, b, c;
        double coefficient;
    };
    static double power(double x, int n) { return n < 0 ? 0.0 : std::pow(x, n); }
    double eval(double x, double y, double z, int axis) const {
        double sum = 0;
        for (const Term& t : terms_) {
            double fx = power(x, t.a), fy = power(y, t.b), fz = power(z, t.c),
                   scale = t.coefficient;
            if (axis == 0) fx = t.a * (t.a - 1) * power(x, t.a - 2);
            if (axis == 1) fy = t.b * (t.b - 1) * power(y, t.b - 2);
            if (axis == 2) fz = t.c * (t.c - 1) * power(z, t.c - 2);
            sum += scale * fx * fy * fz;
        }
        return sum;
    }
    std::vector<Term> terms_;
};

} // namespace stencil::test
