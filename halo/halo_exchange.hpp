// The halo exchange of a star stencil: every step the six faces of the
// current field (depth 1), or every k steps a halo k*R deep of both time
// levels, edges and corners included (depth k; halo_plan.hpp says what each
// message carries and why).
//
// Packed parts are copied into send buffers by one kernel per time level
// and out of receive buffers by one more; depth 1's z faces are R whole
// planes, contiguous, so they are sent from and received into the field
// itself. Buffers, and the path's requests (one set per time-level array,
// since in-place faces live in the array), are made once.
//
// The fused pack (depth 1 with overlap, GPU-aware MPI or NCCL, or a rank
// whose every face is its own): the boundary slabs of step n store the
// faces of p(t_n+1) into the send buffers (double-buffered by time-level
// array) and the halos a rank fills for itself, once each thread has computed them
// (kernels/face_sinks.hpp). Step n+1 then launches no pack, unpacks only
// what came from other ranks, and a rank alone on a periodic box moves
// nothing at all. prime() sets that state up once, where no step left it.
//
// What travels between ranks is a halo path's to carry (halo_path.hpp: MPI,
// staged MPI, NCCL), one type per --comm choice; CommMode::None moves
// nothing (timing only). CommMode::Peer links the faces to ranks on the
// same node instead (peer_links.hpp): the sinks point into those ranks'
// halos, and step counts on the device order the steps; faces to other
// nodes go by GPU-aware MPI.
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
#include "node_memory.hpp"
#include "stream.hpp"

#include <array>
#include <memory>
#include <string>
#include <vector>

namespace stencil {

// Steps whose timers may be in flight at once: the caller reads a step's
// times (HaloExchange::times()) up to kHaloTimingSlots - 1 steps later.
inline constexpr int kHaloTimingSlots = 4;

// --comm peer's shared memory: the node's communicator (split_node) and
// this rank's segment of both time levels, whose origins lie origin_bytes
// into it; the time-level arrays given to the exchange are those.
struct PeerMemory {
    MPI_Comm node = MPI_COMM_NULL;
    const NodeSegment* fields = nullptr;
    std::array<std::size_t, 2> origin_bytes{};
};

class PeerLinks;

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
    // `layout`'s halo is depth * radius cells wide.
    // With `fuse_pack`, the fused pack where it applies (fuses_pack()): the
    // caller's update must then store into sinks_for() every step.
    // CommMode::Peer needs `peer` (collective over the node) and the fused pack.
    HaloExchange(const Decomposition& d, const Layout& layout, int radius, int depth, CommMode mode,
                 const std::vector<T*>& arrays, Stream& halo_stream, bool fuse_pack = false,
                 const PeerMemory& peer = {});
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
    // neighbour, with CommMode::None, or with the fused pack where every
    // face is the rank's own or a linked neighbour's (CommMode::Peer); then
    // a step need not touch the halo stream for the exchange.
    bool moves_data() const { return !idle() && !(fused_ && by_message_ == 0); }
    // Whether the host must act between pack and unpack (MPI knows nothing
    // of streams); with NCCL the whole exchange is stream-ordered.
    // Messages a rank exchanges with itself need no host either.
    bool host_between() const { return moves_data() && path_ && path_->host_between(); }

    // The fused pack (see the top of this file). fuses_pack(): whether it
    // applies. sinks_for(next): where the boundary update writing `next`
    // (p(t_n+1)) stores the faces. sink_copies: the cells of `next` and of
    // the send buffers holding copies of its cell (i, j, k), which a source
    // added after the update must reach too. prime(field): on `stream`,
    // store p(t_n)'s faces into the send buffers and this rank's own halos
    // as the last boundary update would have (after the fields were set
    // from outside a step). With linked faces prime is collective: every
    // rank settles, zeroes its counts and stores into its neighbours'
    // halos between two barriers.
    bool fuses_pack() const { return fused_; }
    // Whether this rank's boundary update stores any face: not where all
    // its faces are z faces, which go whole and in place.
    bool stores_faces() const { return fused_ && sinks_[0].count > 0; }
    const FaceSinks<T>& sinks_for(FieldView<T> next) const;
    // Linked faces (CommMode::Peer): whether any; on `stream`, wait until
    // every linked neighbour has finished the step this rank is about to
    // take, then unpack the mailboxes into `field`'s halos (before the
    // boundary update); and send the staged faces of `next` to the
    // neighbours' mailboxes and tell them this rank has finished its step
    // (after the update and the source).
    int linked_faces() const { return linked_; }
    void await_peers(FieldView<T> field, Stream& stream);
    void signal_peers(FieldView<T> next, Stream& stream);
    std::vector<T*> sink_copies(FieldView<T> next, int i, int j, int k) const;
    void prime(FieldView<T> field, Stream& stream);
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
    // How each of the six faces' halos is filled, "-x peer, +x mpi, -z self":
    // by a linked neighbour's stores, by a message (its path's name), by
    // this rank itself; a face without a neighbour is left out.
    std::string face_routes() const;
    int faces() const { return int(faces_.size()); }

private:
    template <class>
    friend class HaloFaults; // the planted faults (halo_faults.hpp) reach the tables

    struct Face : HaloMessage {
        int level() const { return parts.front().level; } // the field of an in-place message
        T* send_device = nullptr;                         // pack buffer (every packed message)
        T* send_by_array[2] = {};                         // fused: the faces of array a's values
        T* recv_device = nullptr;
        int opposite = -1;         // self: the message towards -dir, whose cells fill this halo
        bool linked = false;       // peer: stored into the neighbour's halo by the boundary update
        T* stage_by_array[2] = {}; // peer, x faces: the slabs' stores, sent whole (Forward)
    };
    // A linked x face's cells, copied whole from where the slabs staged
    // them into the neighbour's mailbox, which it unpacks after its wait:
    // rows of R cells stored across the link one by one cost the step
    // more than the whole face copied in one piece (PERFORMANCE.md).
    struct Forward {
        const T* staged;
        T* mailbox; // the neighbour's, mapped here
        std::size_t cells;
    };
    // The constructor's steps: the messages of the plan; their device
    // buffers; the pack and unpack tables by time level; the path that
    // carries the messages to other ranks.
    void plan_faces(const Decomposition& d, int radius, int depth);
    void allocate_buffers();
    void build_face_tables();
    void connect_path(const Decomposition& d);
    void link_peers(const Decomposition& d, const PeerMemory& peer);
    // The fused pack's tables (fused_pack.cpp): per time-level array, the
    // sinks, and for linked x faces the forwards and the mailbox unpack.
    void build_fused_tables();
    // A linked face's sink: `cells` of this rank stored into the
    // neighbour's halo of its time-level array `array`.
    bool add_linked_sink(FaceSinks<T>& sinks, int array, std::size_t face, const Box& cells);
    void forward_staged(int array, Stream& stream);
    int array_of(const T* origin) const;
    // Where a message's cells are sent from and received into: its buffers,
    // or for an in-place message the planes of `field` or `previous`.
    const T* send_source(const Face& f, FieldView<T> field, FieldView<T> previous) const;
    T* recv_target(const Face& f, FieldView<T> field, FieldView<T> previous) const;
    // The message this rank's peer sends towards it for `f`: towards -dir,
    // with the same level; the same rank's own where f is a self message.
    std::size_t matching(const Face& f) const;
    bool idle() const { return faces_.empty() || mode_ == CommMode::None; }

    CommMode mode_;
    Layout layout_;
    Stream& stream_;
    std::vector<Face> faces_;
    std::vector<DeviceArray<T>> device_buffers_;
    // By time level: the packed parts, their unpacks, every received part.
    FaceTable<T> pack_table_[2], unpack_table_[2], received_[2];
    std::vector<T*> array_origins_; // of the time-level arrays, in the order given
    bool fused_ = false;
    FaceSinks<T> sinks_[2];                 // fused: by the array the boundary writes
    std::vector<Box> self_targets_;         // fused: the halo boxes the sinks fill
    std::unique_ptr<HaloPath<T>> path_;     // the messages to other ranks; none where none go
    std::unique_ptr<PeerLinks> peers_;      // CommMode::Peer: the neighbours on this node
    std::vector<std::size_t> linked_index_; // by face: its index among the faces given peers_
    std::vector<Forward> forwards_[2];      // by the time-level array written
    FaceTable<T> mailbox_unpack_[2];        // by the array that is p: this rank's mailboxes
    MPI_Comm cart_ = MPI_COMM_NULL;
    int array_ = 0; // of the step in progress: array_origins_ index of p
    struct SlotTimers {
        Event pack_start, pack_done, unpack_start, unpack_done;
        double post_ms = 0, wait_ms = 0; // host-side
    };
    std::array<SlotTimers, kTimingSlots> timers_;
    int slot_ = 0; // of the step in progress
    std::size_t bytes_ = 0, largest_ = 0;
    int self_faces_ = 0;
    int linked_ = 0;     // faces stored into a neighbour's halo (CommMode::Peer)
    int by_message_ = 0; // faces to other ranks by a halo path
};

} // namespace stencil
