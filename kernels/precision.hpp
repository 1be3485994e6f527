// The element types the kernels are built for, and their names on command
// lines and in reports. Every kernel, launcher and field operation is a
// template on the element type, instantiated for exactly these two.
#pragma once

#include <string>
#include <type_traits>

namespace stencil {

enum class Precision { FP32, FP64 };

inline const char* precision_name(Precision p) {
    return p == Precision::FP64 ? "fp64" : "fp32";
}

template <class T>
constexpr Precision precision_of() {
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>,
                  "kernels are built for float and double only");
    return std::is_same_v<T, double> ? Precision::FP64 : Precision::FP32;
}

inline int element_bytes(Precision p) {
    return p == Precision::FP64 ? 8 : 4;
}

// "fp32" or "fp64" (also "float", "double"); false for anything else.
inline bool parse_precision(const std::string& text, Precision& out) {
    if (text == "fp32" || text == "float") {
        out = Precision::FP32;
        return true;
    }
    if (text == "fp64" || text == "double") {
        out = Precision::FP64;
        return true;
    }
    return false;
}

// Calls f(T{}) with T = float or double: the one place where a run-time
// precision becomes a type, as dispatch_radius does for R.
template <class F>
decltype(auto) dispatch_precision(Precision p, F&& f) {
    if (p == Precision::FP64) return f(double{});
    return f(float{});
}

} // namespace stencil
