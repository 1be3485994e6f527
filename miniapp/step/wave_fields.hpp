// Private to miniapp/step/simulation*.cpp: the fields of a rank's wave. The
// two time levels, p and p_prev, lie in one segment, which the node's other
// ranks map where the routes link faces (halo/node_memory.hpp; the segment's
// communicator is then the node's), each level on a 256-byte boundary; the
// update writes p_next over p_prev, so which array holds p(t_n) alternates
// step by step. And dt^2 c^2, the velocity term, on the same layout.
#pragma once

#include "field.hpp"
#include "link_path.hpp"
#include "memory.hpp"
#include "mpi_util.hpp"
#include "node_memory.hpp"

#include <array>
#include <cstddef>
#include <utility>
#include <vector>

namespace stencil {

template <class T>
class WaveFields {
public:
    // Both levels zero (zero halos are the Dirichlet boundary), p(t_n) in
    // array 0. `node`: the communicator of the ranks that share the segment
    // (MPI_COMM_NULL: this rank alone); the fields keep it.
    WaveFields(const Layout& layout, Communicator node)
        : layout_(layout), node_(std::move(node)),
          memory_(2 * stride(), node_.get(), SegmentKind::Fields), velocity_(layout.allocation()) {
        for (std::size_t a = 0; a < 2; ++a)
            arrays_[a] = reinterpret_cast<T*>(static_cast<char*>(memory_.data()) + a * stride());
        zero();
    }

    const Layout& layout() const { return layout_; }
    const std::array<T*, 2>& arrays() const { return arrays_; }
    FieldView<T> view(int a) { return view_of(arrays_[std::size_t(a)], layout_); }
    // The index of the array `f` views, and of the one that holds p(t_n).
    int array_of(FieldView<T> f) const {
        return f.origin == view_of(arrays_[0], layout_).origin ? 0 : 1;
    }
    int current() const { return current_; }
    FieldView<const T> current_view() const {
        return view_of(arrays_[std::size_t(current_)], layout_);
    }
    FieldView<const T> level_view(bool previous) const {
        return view_of(arrays_[std::size_t(previous ? 1 - current_ : current_)], layout_);
    }
    // After `steps` steps, p(t_n) is in the other array if they are odd;
    // restart() puts it back in array 0 (the graphs were captured so).
    void advance(int steps) { current_ = (current_ + steps) % 2; }
    void restart() { current_ = 0; }

    // Both levels zero; one level from the host, a whole padded field.
    void zero() {
        const std::vector<T> zeros(layout_.allocation(), T(0));
        for (T* a : arrays_)
            copy(a, zeros.data(), bytes());
    }
    void write(int a, const T* host) { copy(arrays_[std::size_t(a)], host, bytes()); }

    // dt^2 c^2, from a whole padded field on the host.
    void set_velocity(const T* host) { copy_to_device(velocity_, host); }
    FieldView<const T> velocity() const { return view_of(velocity_.data(), layout_); }

    // What a link path maps of the fields: the segment and where each
    // level's origin (its cell (0, 0, 0) of the padded layout, not the
    // allocation's start) lies in it.
    LinkMemory link_memory() const {
        LinkMemory link{node_.get(), &memory_, {}};
        for (int a = 0; a < 2; ++a)
            link.origin_bytes[std::size_t(a)] =
                std::size_t(reinterpret_cast<const char*>(level_origin(a)) -
                            static_cast<const char*>(memory_.data()));
        return link;
    }

private:
    const T* level_origin(int a) const { return view_of(arrays_[std::size_t(a)], layout_).origin; }
    std::size_t bytes() const { return layout_.allocation() * sizeof(T); }
    std::size_t stride() const { return (bytes() + 255) / 256 * 256; }

    Layout layout_;
    Communicator node_;
    NodeSegment memory_;
    std::array<T*, 2> arrays_{};
    DeviceArray<T> velocity_;
    int current_ = 0;
};

} // namespace stencil
