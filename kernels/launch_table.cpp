#include "launch_table.hpp"

#include <algorithm>

namespace stencil {

ShellSplit split_shell(const Box& w, const std::array<int, 3>& depth, const bool (&shrink)[6]) {
    int lo[3], hi[3];
    const int w0[3] = {w.x0, w.y0, w.z0}, w1[3] = {w.x1, w.y1, w.z1};
    for (int a = 0; a < 3; ++a) {
        // At most the box: a --slab-x near INT_MAX must not wrap.
        const int d = std::min(depth[std::size_t(a)], w1[a] - w0[a]);
        lo[a] = std::min(w0[a] + (shrink[2 * a] ? d : 0), w1[a]);
        hi[a] = std::max(w1[a] - (shrink[2 * a + 1] ? d : 0), lo[a]);
    }
    const Box in{lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]};
    const ShellSplit split{in,
                           {{{w.x0, w.x1, w.y0, w.y1, w.z0, in.z0},
                             {w.x0, w.x1, w.y0, w.y1, in.z1, w.z1},
                             {w.x0, w.x1, w.y0, in.y0, in.z0, in.z1},
                             {w.x0, w.x1, in.y1, w.y1, in.z0, in.z1},
                             {w.x0, in.x0, in.y0, in.y1, in.z0, in.z1},
                             {in.x1, w.x1, in.y0, in.y1, in.z0, in.z1}}}};
    return split;
}

std::vector<WaveTable> wave_tables(const Layout& layout, const std::vector<LaunchBox>& boxes,
                                   int lanes) {
    std::vector<WaveTable> tables;
    for (const LaunchBox& b : boxes) {
        if (b.box.empty()) continue;
        const LaunchShape& t = b.shape;
        const bool tile = b.kernel == SlabKernel::Tile;
        const int rows = tile ? t.rows : 1;
        WaveTable* home = nullptr;
        for (WaveTable& table : tables)
            if (table.kernel == b.kernel && table.rows == rows && table.count < kMaxTableBoxes &&
                (!tile || table.threads == t.block_x * t.block_y)) {
                home = &table;
                break;
            }
        if (!home) {
            home = &tables.emplace_back();
            home->kernel = b.kernel;
            home->rows = rows;
        }
        home->add(layout, b.box, lanes, t.block_x, t.block_y, t.window);
    }
    return tables;
}

} // namespace stencil
