// Private to miniapp/step/simulation*.cpp: the Ricker source of a rank's
// steps. By step of the exchange cycle and by the time-level array the step
// writes: the cells it adds to (its images in the step's box and the copies
// the face routes keep of them), for its own launch, and the same images as
// a table in device memory for an update that adds the source itself
// (source.hpp). And the count of the steps it has added, in two words: a
// step that writes array a reads word a and writes word 1 - a.
#pragma once

#include "face_routes.hpp"
#include "source.hpp"
#include "stencil.hpp"

#include <array>
#include <cstddef>
#include <vector>

namespace stencil {

template <class T>
class StepSource {
public:
    // `images[s]`: the source's cells in step s's box (step_boxes.hpp:
    // source_images); `arrays`: the two time levels; `routes`: where the
    // update stores copies of a cell. The count starts at 0.
    StepSource(const RickerSource& ricker,
               const std::vector<std::vector<std::array<int, 3>>>& images,
               const std::array<FieldView<T>, 2>& arrays, const FaceRoutes<T>& routes);

    // Whether any step adds the source on this rank.
    bool any() const { return any_; }
    // The table an update of step `ring_step` writing `array` adds itself,
    // with its hull by value.
    SourceInLaunch<T> in_update(int ring_step, int array) const {
        const std::size_t t = std::size_t(2 * ring_step + array);
        return {in_update_.data() + t, in_updates_[t]};
    }
    // The source's own launch for that step, on `stream`.
    void launch(int ring_step, int array, Stream& stream) {
        launch_add_source(cells_[std::size_t(ring_step)][std::size_t(array)], ricker_,
                          steps_.data() + array, steps_.data() + (1 - array), stream);
    }
    // Both words: the step count the next step starts from.
    void set_steps(long long steps) {
        const long long words[2] = {steps, steps};
        copy_to_device(steps_, words);
    }

private:
    RickerSource ricker_;
    std::vector<std::array<SourceCells<T>, 2>> cells_;
    std::vector<SourceInUpdate<T>> in_updates_; // by step of the cycle, then array written
    DeviceArray<SourceInUpdate<T>> in_update_;  // the same in device memory
    DeviceArray<long long> steps_{2};
    bool any_ = false;
};

template <class T>
StepSource<T>::StepSource(const RickerSource& ricker,
                          const std::vector<std::vector<std::array<int, 3>>>& images,
                          const std::array<FieldView<T>, 2>& arrays, const FaceRoutes<T>& routes)
    : ricker_(ricker) {
    set_steps(0);
    for (const auto& step_images : images) {
        std::array<SourceCells<T>, 2> by_array;
        for (int a = 0; a < 2; ++a) {
            // The array the step writes, and what the fused pack copied of it.
            const FieldView<T> next = arrays[std::size_t(a)];
            SourceCells<T>& cells = by_array[std::size_t(a)];
            SourceInUpdate<T>& folded = in_updates_.emplace_back();
            for (const auto& [i, j, k] : step_images) {
                std::vector<T*> copies = routes.sink_copies(next, i, j, k);
                copies.push_back(next.origin + next.layout.index(i, j, k));
                for (T* copy : copies)
                    if (!cells.add(copy)) fatal("the source has more copies than it holds");
                folded.add(i, j, k); // SourceCells holds more: the copies too
            }
            folded.source = ricker_;
            folded.steps_in = steps_.data() + a;
            folded.steps_out = steps_.data() + (1 - a);
        }
        any_ = any_ || by_array[0].count > 0;
        cells_.push_back(by_array);
    }
    in_update_ = DeviceArray<SourceInUpdate<T>>(in_updates_.size());
    copy_to_device(in_update_, in_updates_.data());
}

} // namespace stencil
