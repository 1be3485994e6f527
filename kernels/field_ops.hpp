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

// buffer[...] = field over `face`, x fastest, then y, then z.
void launch_pack(FieldView<const float> field, const Box& face, float* buffer, Stream& stream);
// field over `face` = buffer[...], the inverse of launch_pack.
void launch_unpack(const float* buffer, FieldView<float> field, const Box& face, Stream& stream);
// field over `box` = value.
void launch_fill(FieldView<float> field, const Box& box, float value, Stream& stream);
// field(i,j,k) += value.
void launch_add_at(FieldView<float> field, int i, int j, int k, float value, Stream& stream);
// out[n] = field.origin[offsets[n]] for n < count; `offsets` and `out` are
// device arrays. Records receivers without copying the field.
void launch_gather_cells(FieldView<const float> field, const std::size_t* offsets, int count,
                         float* out, Stream& stream);
// The number of NaN or infinite cells of `box`, counted into `counter` (one
// device word the caller keeps, so the check allocates nothing); waits.
std::size_t count_nonfinite(FieldView<const float> field, const Box& box,
                            unsigned long long* counter, Stream& stream);

} // namespace stencil
