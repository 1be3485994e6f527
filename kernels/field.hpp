// Non-owning views of a padded field: what kernels and host loops receive.
// Cheap to copy (a pointer and the layout), captured by value in kernels.
#pragma once

#include "layout.hpp"

#include <type_traits>

namespace stencil {

template <class T>
struct FieldView {
    T* origin = nullptr; // cell (0,0,0) of the padded index space
    Layout layout;

    STENCIL_HD T& operator()(int i, int j, int k) const { return origin[layout.index(i, j, k)]; }
    STENCIL_HD T* ptr(int i, int j, int k) const { return origin + layout.index(i, j, k); }
    // A view of T converts to a view of const T (only for non-const T).
    template <class U = T, class = std::enable_if_t<!std::is_const_v<U>>>
    STENCIL_HD operator FieldView<const U>() const {
        return {origin, layout};
    }
};

// A view of an allocation of layout.allocation() elements starting at `base`.
template <class T>
FieldView<T> view_of(T* base, const Layout& layout) {
    return {base + layout.front, layout};
}

} // namespace stencil
