#include "link_path.hpp"

#include "fatal.hpp"
#include "peer_links.hpp"

#include <string>

namespace stencil {

PathRequest request_link_path(CommMode mode) {
    switch (mode) {
    case CommMode::Peer:
        return {{}, "requested; faces stored into the halos of ranks on this node"};
    default:
        return {std::string("--comm ") + comm_mode_name(mode) + " reaches no neighbour's memory",
                {}};
    }
}

std::unique_ptr<LinkPath> make_link_path(CommMode mode, MPI_Comm cart, const LinkMemory& memory,
                                         const std::vector<LinkPath::Face>& faces,
                                         const Layout& layout) {
    switch (mode) {
    case CommMode::Peer:
        return std::make_unique<PeerLinks>(cart, memory, faces, layout);
    default:
        fatal(std::string("--comm ") + comm_mode_name(mode) + " reaches no neighbour's memory");
    }
}

} // namespace stencil
