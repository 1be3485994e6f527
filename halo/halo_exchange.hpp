// The halo exchange of a star stencil: the faces that travel as messages
// (a halo path carries them, halo_path.hpp) and the faces a rank sends to
// itself, every step (depth 1), or every k steps a halo k*R deep of both
// time levels, edges and corners included (depth k; halo_plan.hpp says what
// each message carries and why). Faces that another route fills (a linked
// neighbour's stores, face_routes.hpp) are not its business.
//
// Packed parts are copied into send buffers by one kernel per time level
// and out of receive buffers by one more; depth 1's z faces are R whole
// planes, contiguous, so they are sent from and received into the field
// itself. Buffers, and the path's requests (one set per time-level array,
// since in-place faces live in the array), are made once.
//
// The fused pack (depth 1; face_routes.hpp says when): the update kernels
// of step n store the faces of p(t_n+1) into the send buffers
// (double-buffered by time-level array) and into the halos a rank fills
// for itself, once each thread has computed them (kernels/face_sinks.hpp;
// add_sinks() says where). Step n+1 then launches no pack, unpacks only
// what came from other ranks, and a rank alone on a periodic box moves
// nothing at all.
#pragma once

#include "comm_mode.hpp"
#include "decomposition.hpp"
#include "face_sinks.hpp"
#include "field.hpp"
#include "halo_path.hpp"
#include "halo_plan.hpp"
#include "launch_table.hpp"
#include "layout.hpp"
#include "memory.hpp"
#include "stream.hpp"

#include <array>
#include <memory>
#include <string>
#include <vector>

namespace stencil {

// Steps whose timers may be in flight at once: the caller reads a step's
// times (HaloExchange::times()) up to kHaloTimingSlots - 1 steps later.
// 32, so that the step's clock, which shares the slots, can hold 16 steps
// in one graph and read each only once the next graph is launched.
inline constexpr int kHaloTimingSlots = 32;

// Milliseconds spent in each phase of the last exchange.
struct HaloPhaseTimes {
    double pack = 0, post = 0, wait = 0, unpack = 0;
};

// The exchange of fields of T (float or double; explicitly instantiated).
template <class T>
class HaloExchange {
public:
    // `arrays` are the bases of every allocation the exchange will be asked
    // to work on (the time levels), each of layout.allocation() elements;
    // `layout`'s halo is depth * radius cells wide; `mode` a halo path
    // (not Peer, which is a link path).
    // With `fuse_pack`, the fused pack where it applies (fuses_pack()): the
    // caller's update must then store into add_sinks()' sinks every step.
    // `elsewhere`: by direction index (decomposition.hpp), the faces that
    // another route fills, which this exchange leaves out.
    HaloExchange(const Decomposition& d, const Layout& layout, int radius, int depth, CommMode mode,
                 const std::vector<T*>& arrays, Stream& halo_stream, bool fuse_pack = false,
                 const std::array<bool, kDirections>& elsewhere = {});
    ~HaloExchange();

    static constexpr int kTimingSlots = kHaloTimingSlots;

    // A step calls, in order: begin, pack, post, wait, unpack. The device
    // work (pack, unpack, and NCCL's post) goes on the halo stream, ordered
    // after whatever the caller made that stream wait for; none of it
    // synchronises the host, so a step may be captured as a graph
    // (host_between() says where the host must act between two graphs).
    //
    // 0. Host bookkeeping: the step works on `field` (p(t_n)) and
    //    `previous` (p(t_n-1)) and keeps its timers in `slot`
    //    (0 .. kTimingSlots - 1) until times(slot).
    void begin(FieldView<T> field, FieldView<T> previous, int slot);
    // 1. Pack the owned parts of `field` (p(t_n)) and, at depth > 1, of
    //    `previous` (p(t_n-1)), one launch per time level (and in Staged
    //    mode copy every message to pinned memory). With `timed`, record
    //    the phase's events for times(); otherwise only the event the host
    //    waits for (MPI), since every event is a node on the halo's path.
    void pack(FieldView<T> field, FieldView<T> previous, bool timed);
    // 2. MPI: wait on the host for the pack, and nothing else (MPI reads
    //    the buffers), then start the requests. NCCL: enqueue the group.
    void post();
    // 3. MPI: complete the requests on the host. NCCL: nothing.
    void wait();
    // 4. Unpack every received part into the halos of `field` and
    //    `previous`, one launch per time level (Staged: after copying them
    //    from pinned memory).
    void unpack(FieldView<T> field, FieldView<T> previous, bool timed);

    // Whether any of the above puts work on the halo stream: false with no
    // face to fill (CommMode::None fills only the rank's own), or with the
    // fused pack where every face it fills is the rank's own; then a step
    // need not touch the halo stream for the exchange.
    bool moves_data() const { return !idle() && !(fused_ && by_message_ == 0); }
    // Whether the host must act between pack and unpack (MPI knows nothing
    // of streams); with NCCL the whole exchange is stream-ordered.
    // Messages a rank exchanges with itself need no host either.
    bool host_between() const { return moves_data() && path_ && path_->host_between(); }

    // The fused pack (see the top of this file): whether it applies, and
    // into `sinks`, where the update writing time-level array `array`
    // (p(t_n+1)) stores the faces: this rank's own halos on the far side,
    // or (`messages`) the send buffers of the messages packed for others.
    bool fuses_pack() const { return fused_; }
    void add_sinks(FaceSinks<T>& sinks, int array, bool messages) const;
    // The halo boxes the fused pack's own faces fill (halo_faults.hpp
    // poisons them first).
    const std::vector<Box>& self_targets() const { return self_targets_; }
    // The index of the array that starts at `origin` among those given, and
    // the origin of array `a`.
    int array_of(const T* origin) const;
    const T* array_origin(int a) const { return array_origins_[std::size_t(a)]; }
    // The phases of the step that used `slot`, once the device has finished
    // it (the caller has synchronised an event recorded after unpack()), if
    // that step was timed.
    HaloPhaseTimes times(int slot) const;
    std::size_t bytes_per_exchange() const { return bytes_; }
    // The largest message, in cells (also with CommMode::None).
    std::size_t largest_message_cells() const { return largest_; }
    // Messages this rank exchanges with itself (a periodic axis it is alone
    // along): copied on the device, never through MPI or NCCL.
    int self_faces() const { return self_faces_; }
    int faces() const { return int(faces_.size()); }
    // Messages to other ranks, carried by a halo path.
    int by_message() const { return by_message_; }
    // Every halo part the messages fill, by time level (0: p(t_n), 1:
    // p(t_n-1)), read-only: where the planted poison goes (halo_faults.hpp).
    const FaceTable<T>& received(int level) const { return received_[level]; }

private:
    struct Face : HaloMessage {
        int level() const { return parts.front().level; } // the field of an in-place message
        T* send_device = nullptr;                         // pack buffer (every packed message)
        T* send_by_array[2] = {};                         // fused: the faces of array a's values
        T* recv_device = nullptr;
        int opposite = -1; // self: the message towards -dir, whose cells fill this halo
    };
    // The constructor's steps: the messages of the plan; their device
    // buffers; the pack and unpack tables by time level; the path that
    // carries the messages to other ranks.
    void plan_faces(const Decomposition& d, int radius, int depth,
                    const std::array<bool, kDirections>& elsewhere);
    void allocate_buffers();
    void allocate_neighbour_block(std::vector<Face*>& faces);
    void build_face_tables();
    void connect_path(const Decomposition& d);
    // The fused pack's own halo boxes (fused_pack.cpp).
    void build_fused_tables();
    // Where a message's cells are sent from and received into: its buffers,
    // or for an in-place message the planes of `field` or `previous`.
    const T* send_source(const Face& f, FieldView<T> field, FieldView<T> previous) const;
    T* recv_target(const Face& f, FieldView<T> field, FieldView<T> previous) const;
    // The message this rank's neighbour sends towards it for `f`: towards -dir,
    // with the same level; the same rank's own where f is a self message.
    std::size_t matching(const Face& f) const;
    bool idle() const { return faces_.empty(); }

    CommMode mode_;
    Layout layout_;
    Stream& stream_;
    std::vector<Face> faces_;
    std::vector<DeviceArray<T>> device_buffers_;
    // The packed messages to one neighbour, as one message each way: its
    // faces' buffers lie end to end in one block (halo_exchange.cpp,
    // allocate_buffers).
    struct NeighbourBlock {
        int neighbour;
        std::size_t count; // cells
        T* send[2];        // by time-level array (the same block unless fused)
        T* recv;
    };
    std::vector<NeighbourBlock> neighbour_blocks_;
    // By time level: the packed parts, their unpacks, every received part.
    FaceTable<T> pack_table_[2], unpack_table_[2], received_[2];
    std::vector<T*> array_origins_; // of the time-level arrays, in the order given
    bool fused_ = false;
    std::vector<Box> self_targets_;     // fused: the halo boxes the sinks fill
    std::unique_ptr<HaloPath<T>> path_; // the messages to other ranks; none where none go
    int array_ = 0;                     // of the step in progress: array_origins_ index of p
    struct SlotTimers {
        Event pack_start, pack_done, unpack_start, unpack_done;
        double post_ms = 0, wait_ms = 0; // host-side
    };
    std::array<SlotTimers, kTimingSlots> timers_;
    int slot_ = 0; // of the step in progress
    std::size_t bytes_ = 0, largest_ = 0;
    int self_faces_ = 0;
    int by_message_ = 0; // faces to other ranks by a halo path
};

} // namespace stencil
