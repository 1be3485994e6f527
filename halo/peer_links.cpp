#include "peer_links.hpp"

#include "fatal.hpp"
#include "gpu_runtime.hpp"
#include "halo_plan.hpp"
#include "memory.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>

namespace stencil {
namespace {

// A rank's count words: one incoming slot per direction index (only the
// six faces' are used), and its own count after them.
constexpr int kSignalWords = 32;
constexpr int kOwnWord = kDirections;

} // namespace

// What a rank tells the neighbour across one face, plain bytes for MPI.
struct PeerLinks::ArraysMessage {
    SegmentHandle fields, signals;
    std::uint64_t origin_bytes[2] = {};
    int extent[3] = {}, halo = 0;
    int slot = 0; // the sender's count slot for this face: the receiver raises it
    char bus_id[32] = {};
};

namespace {
using ArraysMessage = PeerLinks::ArraysMessage;

void current_bus_id(char (&bus)[32]) {
#if STENCIL_HAS_GPU
    int device = 0;
    GPU_CHECK(STENCIL_RT(GetDevice)(&device));
    GPU_CHECK(STENCIL_RT(DeviceGetPCIBusId)(bus, int(sizeof bus), device));
#else
    std::strcpy(bus, "host");
#endif
}

// `sent[f]` to each linked face's neighbour, towards the face's direction;
// what each neighbour sent back across it, received as the message from
// the opposite side (the exchange's tags, halo_plan.hpp).
std::vector<ArraysMessage> swap_arrays(MPI_Comm cart, const std::vector<LinkPath::Face>& faces,
                                       const std::vector<bool>& linked,
                                       const std::vector<ArraysMessage>& sent) {
    std::vector<ArraysMessage> got(faces.size());
    std::vector<MPI_Request> requests;
    for (std::size_t f = 0; f < faces.size(); ++f) {
        if (!linked[f]) continue;
        requests.resize(requests.size() + 2);
        MPI_CHECK(MPI_Irecv(&got[f], int(sizeof(ArraysMessage)), MPI_BYTE, faces[f].neighbour,
                            message_tag(opposite(faces[f].direction), 0), cart,
                            &requests[requests.size() - 2]));
        MPI_CHECK(MPI_Isend(&sent[f], int(sizeof(ArraysMessage)), MPI_BYTE, faces[f].neighbour,
                            message_tag(faces[f].direction, 0), cart, &requests.back()));
    }
    MPI_CHECK(MPI_Waitall(int(requests.size()), requests.data(), MPI_STATUSES_IGNORE));
    return got;
}

// How this rank's GPU reaches the GPU on `bus`: the same GPU, by peer
// access, or not at all (not visible, or no peer access).
enum class Reach { Same, Peer, None };
Reach reach_of(const char* bus, int& other) {
#if STENCIL_HAS_GPU
    int device = 0, can = 0;
    GPU_CHECK(STENCIL_RT(GetDevice)(&device));
    if (STENCIL_RT(DeviceGetByPCIBusId)(&other, bus) != gpu::kSuccess) {
        (void)STENCIL_RT(GetLastError)();
        return Reach::None;
    }
    if (other == device) return Reach::Same;
    GPU_CHECK(STENCIL_RT(DeviceCanAccessPeer)(&can, device, other));
    return can ? Reach::Peer : Reach::None;
#else
    (void)bus, (void)other;
    return Reach::Same;
#endif
}

// Peer access from this rank's GPU to rank `rank`'s on `bus`, enabled
// explicitly; nothing where both ranks share one GPU.
void reach_gpu(const char* bus, int rank) {
    int other = 0;
    const Reach reach = reach_of(bus, other);
    if (reach == Reach::None)
        fatal(std::string("--comm peer: this GPU cannot reach rank ") + std::to_string(rank) +
              "'s (" + bus +
              "): let every rank see every GPU of its node, or use --comm gpu-aware");
#if STENCIL_HAS_GPU
    if (reach != Reach::Peer) return;
    const gpu::Error err = STENCIL_RT(DeviceEnablePeerAccess)(other, 0);
    if (err == STENCIL_RT(ErrorPeerAccessAlreadyEnabled))
        (void)STENCIL_RT(GetLastError)();
    else
        GPU_CHECK(err);
#endif
}

// Which of `faces` lead to a rank of `node`.
std::vector<bool> on_node(MPI_Comm cart, MPI_Comm node, const std::vector<LinkPath::Face>& faces) {
    MPI_Group cart_group, node_group;
    MPI_CHECK(MPI_Comm_group(cart, &cart_group));
    MPI_CHECK(MPI_Comm_group(node, &node_group));
    std::vector<int> ranks, in_node(faces.size());
    for (const LinkPath::Face& f : faces)
        ranks.push_back(f.neighbour);
    if (!faces.empty())
        MPI_CHECK(MPI_Group_translate_ranks(cart_group, int(ranks.size()), ranks.data(), node_group,
                                            in_node.data()));
    MPI_CHECK(MPI_Group_free(&cart_group));
    MPI_CHECK(MPI_Group_free(&node_group));
    std::vector<bool> result;
    for (const int r : in_node)
        result.push_back(r != MPI_UNDEFINED);
    return result;
}

} // namespace

PeerReach peer_reach(MPI_Comm comm, int ranks_per_node) {
    PeerReach r;
    const Communicator node(split_node(comm, ranks_per_node));
    int node_size = 0, size = 0;
    MPI_CHECK(MPI_Comm_size(node.get(), &node_size));
    MPI_CHECK(MPI_Comm_size(comm, &size));
    int smallest = node_size;
    MPI_CHECK(MPI_Allreduce(&node_size, &smallest, 1, MPI_INT, MPI_MIN, comm));
    r.one_node = smallest == size;
    if (!STENCIL_HAS_GPU) {
        r.why = "the HOST back-end takes it when asked (--comm peer)";
        return r;
    }
    char mine[32] = {};
    current_bus_id(mine);
    std::vector<char> all(std::size_t(node_size) * sizeof mine);
    MPI_CHECK(MPI_Allgather(mine, int(sizeof mine), MPI_CHAR, all.data(), int(sizeof mine),
                            MPI_CHAR, node.get()));
    int ok = 1, other = 0;
    for (int n = 0; n < node_size; ++n)
        ok = ok && reach_of(&all[std::size_t(n) * sizeof mine], other) != Reach::None;
    int everywhere = 0;
    MPI_CHECK(MPI_Allreduce(&ok, &everywhere, 1, MPI_INT, MPI_MIN, comm));
    r.reachable = everywhere != 0;
    if (!r.reachable)
        r.why = "a rank cannot reach every GPU of its node (visibility or peer access)";
    return r;
}

PeerLinks::PeerLinks(MPI_Comm cart, const LinkMemory& memory, const std::vector<Face>& faces,
                     const Layout& layout)
    : cart_(cart), signals_(kSignalWords * sizeof(unsigned), memory.node, SegmentKind::Signals),
      neighbour_arrays_(faces.size()) {
    if (memory.fields == nullptr || memory.node == MPI_COMM_NULL)
        fatal("--comm peer: the fields are not in memory the node shares");
    step_counts_.own = static_cast<unsigned*>(signals_.data()) + kOwnWord;
    const std::vector<bool> linked = on_node(cart, memory.node, faces);
    ArraysMessage mine;
    mine.fields = memory.fields->handle(), mine.signals = signals_.handle();
    mine.extent[0] = layout.nx, mine.extent[1] = layout.ny, mine.extent[2] = layout.nz;
    mine.halo = layout.halo;
    for (int a = 0; a < 2; ++a)
        mine.origin_bytes[a] = memory.origin_bytes[std::size_t(a)];
    current_bus_id(mine.bus_id);
    std::vector<ArraysMessage> sent(faces.size(), mine);
    for (std::size_t f = 0; f < faces.size(); ++f)
        sent[f].slot = faces[f].direction;
    link(faces, linked, swap_arrays(cart, faces, linked, sent), *memory.fields);
}

void PeerLinks::link(const std::vector<Face>& faces, const std::vector<bool>& linked,
                     const std::vector<ArraysMessage>& got, const NodeSegment& fields) {
    unsigned* words = static_cast<unsigned*>(signals_.data());
    // Each neighbour mapped once, however many faces it is across.
    std::map<int, std::size_t> mapped_of; // the neighbour's first segment in mapped_
    for (std::size_t f = 0; f < faces.size(); ++f) {
        if (!linked[f]) continue;
        const ArraysMessage& m = got[f];
        auto found = mapped_of.find(faces[f].neighbour);
        if (found == mapped_of.end()) {
            reach_gpu(m.bus_id, faces[f].neighbour);
            mapped_.emplace_back(m.fields, fields);
            mapped_.emplace_back(m.signals, signals_);
            found = mapped_of.emplace(faces[f].neighbour, mapped_.size() - 2).first;
        }
        char* their_fields = static_cast<char*>(mapped_[found->second].data());
        auto* their_words = static_cast<unsigned*>(mapped_[found->second + 1].data());
        NeighbourArrays& l = neighbour_arrays_[f];
        l.layout = Layout(m.extent[0], m.extent[1], m.extent[2], m.halo);
        for (int a = 0; a < 2; ++a)
            l.origin[std::size_t(a)] = their_fields + m.origin_bytes[a];
        if (!step_counts_.add(their_words + m.slot, words + faces[f].direction))
            fatal("--comm peer: more linked faces than a step's count table holds");
    }
}

PeerLinks::~PeerLinks() {
    mapped_.clear();
    MPI_Barrier(cart_); // no error check in a destructor: a failed barrier ends the job anyway
}

void PeerLinks::restart_counts() {
    const std::vector<unsigned> zeros(kSignalWords, 0u);
    copy(signals_.data(), zeros.data(), zeros.size() * sizeof(unsigned));
}

} // namespace stencil
