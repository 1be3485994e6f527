// Private to miniapp/step/simulation*.cpp: the boxes a step's wave update
// runs over, each with its resolved launch shape (wave_shape asks the
// occupancy API once, at setup, not every step). One update of the whole
// box a step; or, where overlap is on and some side's halo arrives during
// the step, the interior while the halos travel and the slabs of the shell
// after it, merged into as few launches as their shapes allow. With deep
// halos "whole" is the interior grown by the ring the exchange step updates
// ((k-1)R cells on each side with a neighbour), and each later step of the
// cycle updates a ring box of its own.
#pragma once

#include "launch_table.hpp"

#include <vector>

namespace stencil {

struct UpdateBoxes {
    LaunchBox whole, inner;
    std::vector<LaunchBox> slabs;       // the shell whole - inner, as non-overlapping boxes
    std::vector<WaveTable> slab_tables; // the slabs in as few launches as their shapes allow
    std::vector<LaunchBox> ring;        // deep halos: the box of each step after the exchange
    bool overlapped = false;            // the interior, then the slabs

    // Every box the steps update with this schedule: whole, or inner and
    // the slabs, then the ring's (pointers to const for a const `self`).
    template <class Self>
    static auto updated(Self& self) {
        std::vector<decltype(&self.whole)> boxes;
        if (!self.overlapped) {
            boxes.push_back(&self.whole);
        } else {
            if (!self.inner.box.empty()) boxes.push_back(&self.inner);
            for (auto& slab : self.slabs)
                boxes.push_back(&slab);
        }
        for (auto& ring : self.ring)
            boxes.push_back(&ring);
        return boxes;
    }
};

} // namespace stencil
