#include "launch_table.hpp"

namespace stencil {

std::vector<WaveTable> wave_tables(const Layout& layout, const std::vector<LaunchBox>& boxes,
                                   int lanes) {
    std::vector<WaveTable> tables;
    for (const LaunchBox& b : boxes) {
        if (b.box.empty()) continue;
        const Tuning& t = b.tuning;
        const int threads = t.block_x * t.block_y;
        WaveTable* home = nullptr;
        for (WaveTable& table : tables)
            if (table.threads == threads && table.rows == t.rows && table.count < kMaxTableBoxes) {
                home = &table;
                break;
            }
        if (!home) {
            home = &tables.emplace_back();
            home->threads = threads;
            home->rows = t.rows;
        }
        home->add(layout, b.box, lanes, t.block_x, t.block_y, t.window);
    }
    return tables;
}

} // namespace stencil
