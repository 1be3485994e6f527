// Launchers of the small kernels around the stencil: halo face pack and
// unpack, filling a box, and adding a value at one cell (source injection).
// halo/ and miniapp/ use these; like stencil.hpp they are implemented by GPU
// kernels or, on the HOST back-end, by loops.
#pragma once

#include "box.hpp"
#include "field.hpp"
#include "stream.hpp"

#include <cstddef>

namespace stencil {

// Templated on the element type; instantiated for float and double.

// buffer[...] = field over `face`, x fastest, then y, then z.
template <class T>
void launch_pack(FieldView<const T> field, const Box& face, T* buffer, Stream& stream);
// field over `face` = buffer[...], the inverse of launch_pack.
template <class T>
void launch_unpack(const T* buffer, FieldView<T> field, const Box& face, Stream& stream);
// field over `box` = value.
template <class T>
void launch_fill(FieldView<T> field, const Box& box, T value, Stream& stream);
// field(i,j,k) += value.
template <class T>
void launch_add_at(FieldView<T> field, int i, int j, int k, T value, Stream& stream);
// out[n] = field.origin[offsets[n]] for n < count, widened to double (exact);
// `offsets` and `out` are device arrays. Records receivers without copying
// the field, in one format for both precisions.
template <class T>
void launch_gather_cells(FieldView<const T> field, const std::size_t* offsets, int count,
                         double* out, Stream& stream);
// The number of NaN or infinite cells of `box`, counted into `counter` (one
// device word the caller keeps, so the check allocates nothing); waits.
template <class T>
std::size_t count_nonfinite(FieldView<const T> field, const Box& box, unsigned long long* counter,
                            Stream& stream);

#define STENCIL_INSTANTIATE_FIELD_OPS(T)                                                           \
    template void launch_pack<T>(FieldView<const T>, const Box&, T*, Stream&);                     \
    template void launch_unpack<T>(const T*, FieldView<T>, const Box&, Stream&);                   \
    template void launch_fill<T>(FieldView<T>, const Box&, T, Stream&);                            \
    template void launch_add_at<T>(FieldView<T>, int, int, int, T, Stream&);                       \
    template void launch_gather_cells<T>(FieldView<const T>, const std::size_t*, int, double*,     \
                                         Stream&);                                                 \
    template std::size_t count_nonfinite<T>(FieldView<const T>, const Box&, unsigned long long*,   \
                                            Stream&);

} // namespace stencil
