#include "graph.hpp"

#include <utility>

namespace stencil {

bool graphs_available() {
    return STENCIL_HAVE_GRAPHS;
}

#if STENCIL_HAVE_GRAPHS

Graph::~Graph() {
    if (exec_) (void)STENCIL_RT(GraphExecDestroy)(exec_);
}

Graph::Graph(Graph&& other) noexcept : exec_(std::exchange(other.exec_, nullptr)) {}

Graph& Graph::operator=(Graph&& other) noexcept {
    if (this != &other) {
        if (exec_) (void)STENCIL_RT(GraphExecDestroy)(exec_);
        exec_ = std::exchange(other.exec_, nullptr);
    }
    return *this;
}

Graph Graph::capture(Stream& origin, const std::function<void()>& enqueue) {
    // Thread-local: another thread's unrelated runtime calls (an MPI
    // progress thread's, say) do not invalidate the capture.
    GPU_CHECK(
        STENCIL_RT(StreamBeginCapture)(origin.handle(), STENCIL_RT(StreamCaptureModeThreadLocal)));
    detail::set_capturing(true); // every stream this thread uses now is part of the capture
    enqueue();
    detail::set_capturing(false);
    STENCIL_RT(Graph_t) graph = nullptr;
    GPU_CHECK(STENCIL_RT(StreamEndCapture)(origin.handle(), &graph));
    Graph g;
    // Each kernel node keeps the priority of the stream it was captured
    // from; without this flag the whole graph would run at the priority of
    // the stream it is launched into, and the pack, unpack and boundary
    // kernels would queue behind the interior's blocks instead of ahead of
    // them (measured on 2 x H200: docs/performance-history.md, "Merged launches and graphs").
    GPU_CHECK(STENCIL_RT(GraphInstantiateWithFlags)(
        &g.exec_, graph, STENCIL_RT(GraphInstantiateFlagUseNodePriority)));
    GPU_CHECK(STENCIL_RT(GraphDestroy)(graph)); // the executable graph keeps what it needs
    return g;
}

void Graph::launch(Stream& stream) {
    GPU_CHECK(STENCIL_RT(GraphLaunch)(exec_, stream.handle()));
}

bool Graph::ready() const {
    return exec_ != nullptr;
}

#else

Graph::~Graph() = default;
Graph::Graph(Graph&&) noexcept = default;
Graph& Graph::operator=(Graph&&) noexcept = default;

Graph Graph::capture(Stream&, const std::function<void()>&) {
    fatal("graphs: this build has none (the HOST back-end, or HIP before ROCm 6.2)");
}

void Graph::launch(Stream&) {
    fatal("graphs: this build has none");
}

bool Graph::ready() const {
    return false;
}

#endif

} // namespace stencil
