// Launchers of the small kernels around the stencil: halo face pack and
// unpack, filling a box, and adding a value at one cell (source injection).
// halo/ and miniapp/ use these; like stencil.hpp they are implemented by GPU
// kernels or, on the HOST back-end, by loops.
#pragma once

#include "box.hpp"
#include "face_sinks.hpp"
#include "field.hpp"
#include "launch_table.hpp"
#include "source.hpp"
#include "stream.hpp"

#include <cstddef>

namespace stencil {

// Templated on the element type; instantiated for float and double.

// Each in one launch over every box of the table (launch_table.hpp):
// buffer[f][...] = field over box[f], x fastest, then y, then z.
template <class T>
void launch_pack_faces(FieldView<const T> field, const FaceTable<T>& faces, Stream& stream);
// field over box[f] = buffer[f][...], the inverse of launch_pack_faces.
template <class T>
void launch_unpack_faces(FieldView<T> field, const FaceTable<T>& faces, Stream& stream);
// field over every box[f] = value (the buffers are not used).
template <class T>
void launch_fill_faces(FieldView<T> field, const FaceTable<T>& faces, T value, Stream& stream);

// One box: a table of one.
template <class T>
void launch_pack(FieldView<const T> field, const Box& face, T* buffer, Stream& stream) {
    FaceTable<T> one;
    one.add(face, buffer);
    launch_pack_faces(field, one, stream);
}
template <class T>
void launch_unpack(const T* buffer, FieldView<T> field, const Box& face, Stream& stream) {
    FaceTable<T> one;
    one.add(face, const_cast<T*>(buffer));
    launch_unpack_faces(field, one, stream);
}
template <class T>
void launch_fill(FieldView<T> field, const Box& box, T value, Stream& stream) {
    FaceTable<T> one;
    one.add(box, nullptr);
    launch_fill_faces(field, one, value, stream);
}
// Every cell of every sink's box, from `field`, stored where the sink puts
// it: what the last boundary update would have stored (the fused pack's
// priming, after the fields were set from outside a step).
template <class T>
void launch_store_faces(FieldView<const T> field, const FaceSinks<T>& sinks, Stream& stream);
// *cells.cell[c] += source.amplitude(n) for every cell c, then
// *steps_out = n + 1, where n is the device word *steps_in (the step count
// the caller keeps on the device, from 0, in two words: source.hpp,
// SourceInUpdate).
template <class T>
void launch_add_source(const SourceCells<T>& cells, const RickerSource& source,
                       const long long* steps_in, long long* steps_out, Stream& stream);
// out[n] = field.origin[offsets[n]] for n < count, widened to double (exact);
// `offsets` and `out` are device arrays. Records receivers without copying
// the field, in one format for both precisions.
template <class T>
void launch_gather_cells(FieldView<const T> field, const std::size_t* offsets, int count,
                         double* out, Stream& stream);
// The number of NaN or infinite cells of `box`, counted into `counter` (one
// device word the caller keeps, so the check allocates nothing) and copied
// to `*count` (pinned host memory), both on `stream`, without waiting: the
// count is there once the stream has passed this point (an event after it).
template <class T>
void launch_count_nonfinite(FieldView<const T> field, const Box& box, unsigned long long* counter,
                            unsigned long long* count, Stream& stream);

#define STENCIL_INSTANTIATE_FIELD_OPS(T)                                                           \
    template void launch_pack_faces<T>(FieldView<const T>, const FaceTable<T>&, Stream&);          \
    template void launch_unpack_faces<T>(FieldView<T>, const FaceTable<T>&, Stream&);              \
    template void launch_fill_faces<T>(FieldView<T>, const FaceTable<T>&, T, Stream&);             \
    template void launch_store_faces<T>(FieldView<const T>, const FaceSinks<T>&, Stream&);         \
    template void launch_add_source<T>(const SourceCells<T>&, const RickerSource&,                 \
                                       const long long*, long long*, Stream&);                     \
    template void launch_gather_cells<T>(FieldView<const T>, const std::size_t*, int, double*,     \
                                         Stream&);                                                 \
    template void launch_count_nonfinite<T>(FieldView<const T>, const Box&, unsigned long long*,   \
                                            unsigned long long*, Stream&);

} // namespace stencil
