// RAII owner of an executable graph: device work captured once from one or
// more streams and replayed with one launch.
//
// At small boxes a time step costs more in launches and host API calls than
// on the device (docs/scaling/SMALL-BOXES.md); a replayed graph submits all
// of a step's kernels, copies, event records and cross-stream edges at once.
// HIP and CUDA share the API; where the runtime lacks what a captured step
// needs (STENCIL_HAVE_GRAPHS is 0: the HOST back-end, or HIP before ROCm
// 6.2), graphs_available() is false and nothing here may be called.
#pragma once

#include "stream.hpp"

#include <functional>

namespace stencil {

bool graphs_available();

class Graph {
public:
    Graph() = default;
    ~Graph();
    Graph(Graph&& other) noexcept;
    Graph& operator=(Graph&& other) noexcept;
    Graph(const Graph&) = delete;
    Graph& operator=(const Graph&) = delete;

    // Captures what `enqueue` puts on `origin`, and on every stream it forks
    // from `origin` with Stream::wait_for (each must be joined back the same
    // way before `enqueue` returns), into a graph ready to launch.
    static Graph capture(Stream& origin, const std::function<void()>& enqueue);
    // Enqueues one replay on `stream`: after its earlier work, and before
    // its later work, as one unit.
    void launch(Stream& stream);
    bool ready() const;

private:
#if STENCIL_HAVE_GRAPHS
    STENCIL_RT(GraphExec_t) exec_ = nullptr;
#endif
};

} // namespace stencil
