// Every face of a rank's box has one route, fixed when the routes are made,
// as AMReX's FabArrayBase::FB tags each piece of halo once, a local copy
// or a message, and its fill loop only walks the lists:
//   self     the rank is its own neighbour (a periodic axis it is alone
//            along): its own cells fill the halo on the far side;
//   linked   the neighbour is on this node and a link path reaches its
//            memory (--comm peer, link_path.hpp);
//   message  a halo path carries the cells (HaloExchange, halo_path.hpp).
// Where the update kernels store faces (the fused pack), the kernel that
// computes a self or linked face cell also stores it where it is read
// next: the rank's own halo across the box, or the neighbour's halo of the
// time level it reads next; message faces go into their send buffers the
// same way. Otherwise the exchange packs them, and fills self halos by
// copies. A rank whose faces are all self or linked then runs one kernel a
// step and exchanges nothing.
//
// FaceRoutes<T> owns the routes, the exchange of the message faces, the
// link path of the linked ones, and the sinks the update kernels store into.
#pragma once

#include "comm_mode.hpp"
#include "decomposition.hpp"
#include "face_sinks.hpp"
#include "field.hpp"
#include "halo_exchange.hpp"
#include "halo_plan.hpp"
#include "layout.hpp"
#include "link_path.hpp"
#include "memory.hpp"
#include "stream.hpp"

#include <array>
#include <memory>
#include <string>
#include <vector>

namespace stencil {

enum class FaceRoute { Self, Linked, Message };

template <class T>
class FaceRoutes {
public:
    // `mode`: the run's --comm. Peer links the faces to ranks on this node
    // through the link path (collective over the node; `link` names the
    // memory it maps) and sends the others by GPU-aware MPI. `stores_faces`:
    // the update kernels store the faces (the fused pack; depth 1).
    FaceRoutes(const Decomposition& d, const Layout& layout, int radius, int depth, CommMode mode,
               const std::array<T*, 2>& arrays, Stream& halo_stream, bool stores_faces,
               const LinkMemory& link = {});
    ~FaceRoutes();

    // The message faces' exchange (idle where there are none), and the link
    // path of the linked faces (null unless --comm peer).
    HaloExchange<T>& messages() { return *exchange_; }
    const HaloExchange<T>& messages() const { return *exchange_; }
    LinkPath* links() const { return links_.get(); }
    int linked_faces() const { return linked_; }

    // By side (x low, x high, y low, y high, z low, z high): whether the
    // halo there arrives during the step from the exchange (a message, or
    // a self face it copies), so that the cells reading it wait for the
    // boundary slabs. A self or linked face that the update stores is in
    // when the step starts.
    std::array<bool, 6> exchanged_sides() const;

    // Where the update kernels writing `next` (p(t_n+1)) store the faces:
    // none where nothing is stored. In device memory, the one-box kernel's
    // table, of the faces the next update reads where they are stored (self
    // and linked; null where none).
    const FaceSinks<T>& sinks_for(FieldView<T> next) const;
    const FaceSinks<T>* device_sinks_for(FieldView<T> next) const;
    // Whether this rank's update stores any face (z faces of a message go
    // in place, so a rank with only those stores none).
    bool stores_faces() const { return sinks_[0].count > 0; }
    // The cells of `next` and of the sinks holding copies of its cell
    // (i, j, k), which a source added after the update must reach too.
    std::vector<T*> sink_copies(FieldView<T> next, int i, int j, int k) const;
    // On `stream`, the faces of p(t_n) stored as the last update would have
    // (after the fields were set from outside a step). With a link path,
    // collective: every rank settles, its counts restart, and it stores
    // into its neighbours' halos between two barriers.
    void prime(FieldView<T> field, Stream& stream);

    // How each of the six faces' halos is filled, "-x peer, +x gpu-aware,
    // -z self": by a linked neighbour's stores (the link path's name), by
    // a message (the halo path's name), by this rank; a face without a
    // neighbour is left out.
    std::string describe() const;
    // The halo messages this rank's halos are filled by (CommMode::None
    // fills only its own), and those it sends itself.
    int faces() const;
    int self_faces() const;

    // Each face's message and route, in the plan's order; the path's mode.
    struct RoutedFace {
        HaloMessage message;
        FaceRoute route = FaceRoute::Message;
    };
    const std::vector<RoutedFace>& routed_faces() const { return faces_; }
    CommMode mode() const { return mode_; }
    // The sinks the update writing time-level array `a` stores into, as the
    // routes made them: the self faces', then the linked ones' from
    // `first_linked`, `stored` in all, then the send buffers'.
    struct SinkTables {
        const FaceSinks<T>& of(int a) const { return tables[a]; }
        const FaceSinks<T>* tables;
        int first_linked, stored;
    };
    SinkTables sink_tables() const { return {sinks_, first_linked_sink_, stored_sinks_}; }
    // Replaces the sink tables with changed copies of sink_tables()'s, and
    // publishes them to the update kernels: only the planted faults do
    // (halo_faults.hpp), which keep the same sinks in the same order.
    void replace_sinks(const FaceSinks<T> (&tables)[2]);

private:
    // The linked faces' sinks: each face's owned cells, stored into the
    // neighbour's halo of the time-level array the update writes.
    void add_linked_sinks(FaceSinks<T>& sinks, int array) const;
    // The skip boxes, and the one-box kernel's table into device memory
    // (again after replace_sinks).
    void publish_sinks();
    int array_of(const T* origin) const { return exchange_->array_of(origin); }

    CommMode mode_;
    Layout layout_;
    int radius_;
    MPI_Comm cart_;
    std::vector<RoutedFace> faces_; // the plan's messages, each with its route
    std::unique_ptr<LinkPath> links_;
    std::vector<std::size_t> link_index_; // by face: its index among the link path's faces
    std::unique_ptr<HaloExchange<T>> exchange_;
    FaceSinks<T> sinks_[2]; // by the time-level array the update writes
    DeviceArray<FaceSinks<T>> device_sinks_{2};
    int first_linked_sink_ = 0; // the linked faces' sinks follow the self ones
    int stored_sinks_ = 0;      // self and linked, before the send buffers
    bool one_box_stores_ = false;
    int linked_ = 0;
};

} // namespace stencil
