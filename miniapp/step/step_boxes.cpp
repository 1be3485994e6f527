#include "step/step_boxes.hpp"

#include <algorithm>

namespace stencil {

StepBoxes step_boxes(const Layout& layout, int radius, int depth, const std::array<bool, 6>& sides,
                     int x_depth, const std::function<void(Box&)>& reshape_grown) {
    // A physical boundary's halo is zero and never exchanged, so cells next
    // to it need not wait, and no neighbour's cells lie beyond it. The box
    // updated s steps after an exchange is the interior grown by (k-1-s)*R
    // on the sides with a neighbour: each step's stencil reaches R further
    // than the box it updates, which is what the step before it (or the
    // exchange, k*R deep) left valid; the last step updates owned cells only.
    auto ring_box = [&](int s) {
        const int grow = (depth - 1 - s) * radius;
        const Box in = layout.interior();
        int lo[3] = {in.x0, in.y0, in.z0}, hi[3] = {in.x1, in.y1, in.z1};
        for (int a = 0; a < 3; ++a)
            lo[a] -= sides[std::size_t(2 * a)] ? grow : 0,
                hi[a] += sides[std::size_t(2 * a + 1)] ? grow : 0;
        Box box{lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]};
        if (reshape_grown && grow > 0) reshape_grown(box);
        return box;
    };
    StepBoxes boxes;
    boxes.whole = ring_box(0);
    // What the exchange step can update before the halos arrive: the
    // interior shrunk by k*R (along x by x_depth), which reads owned cells
    // only.
    const bool side[6] = {sides[0], sides[1], sides[2], sides[3], sides[4], sides[5]};
    const int shell = depth * radius;
    const ShellSplit split =
        split_shell(boxes.whole, {std::max(x_depth, shell), shell, shell}, side);
    boxes.inner = split.inner;
    for (const Box& b : split.slabs)
        if (!b.empty()) boxes.slabs.push_back(b);
    for (int s = 1; s < depth; ++s)
        boxes.rings.push_back(ring_box(s));
    return boxes;
}

std::vector<std::array<int, 3>> source_images(const std::array<int, 3>& source,
                                              const std::array<int, 3>& offset,
                                              const std::array<int, 3>& global,
                                              const std::array<bool, 3>& periodic, int halo,
                                              const Box& box) {
    std::vector<int> along[3];
    for (int a = 0; a < 3; ++a) {
        const int local = source[a] - offset[a] + halo;
        along[a] = {local};
        if (periodic[a]) along[a].insert(along[a].end(), {local - global[a], local + global[a]});
    }
    std::vector<std::array<int, 3>> inside;
    for (const int k : along[2])
        for (const int j : along[1])
            for (const int i : along[0])
                if (box.contains(i, j, k)) inside.push_back({i, j, k});
    return inside;
}

} // namespace stencil
