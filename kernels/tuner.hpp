// The launch-shape search of the self-tuner: which shapes to try for one
// kernel over one box, and a bounded coordinate descent over them.
//
// The search knows nothing of GPUs: it is handed a function that times a
// shape (or says it cannot run, or gave different bits), so that CI tests
// the search itself against timers with known minima. tune_on_device.cpp
// supplies the real one.
#pragma once

#include "launch_shape.hpp"
#include "precision.hpp"

#include <functional>
#include <string>
#include <vector>

namespace stencil {

// The values each coordinate of a LaunchShape may take in a search.
struct TuneSpace {
    std::vector<std::pair<int, int>> blocks; // (block_x, block_y)
    std::vector<int> windows;
    std::vector<int> rows;
    std::vector<int> aheads{1}; // planes of loads in flight (LaunchShape::ahead)
    // The wave update's bodies; a shape moved to Cells keeps its block and
    // window and runs one row with one plane ahead (LaunchShape::body).
    std::vector<WaveBody> bodies{WaveBody::Tile};
};

// Every shape worth trying for `kernel` at radius R in `precision` over a
// box of `nz` planes: blocks of 64 to 256 threads, windows up to the box's
// planes, rows the kernel is built for, two planes of loads in flight
// where the wave update is built with them (two_planes_ahead_built), and
// for the wave update both bodies. Blocks that fits() refuses are left out.
TuneSpace tune_space(FusedKernel kernel, int radius, Precision precision, int nz);

// What timing one shape gave.
struct Timing {
    enum Outcome { Ran, CannotRun, WrongResult } outcome = Ran;
    double ms = 0;       // Ran: the time per launch
    double spent_ms = 0; // wall time the measurement took, counted against the budget
};
using ShapeTimer = std::function<Timing(const LaunchShape&)>;

struct TuneResult {
    LaunchShape best;    // `start` unless something beat it by more than the noise
    double best_ms = 0;  // its time
    LaunchShape start;   // the default the search began from
    double start_ms = 0; // its time
    int tried = 0;       // shapes timed
    int refused = 0;     // shapes that could not run or gave different bits
    bool out_of_time = false;
    bool unconfirmed = false;    // a faster shape was found but did not keep its lead
    std::string summary() const; // one line for logs and reports
};

// Coordinate descent from `start`: for each coordinate in turn (block,
// window, rows, planes ahead, body) time every value with the others fixed, and
// move when a shape is faster than the best so far by more than `noise` (a
// fraction: 0.02 is 2%). Repeats until a full pass moves nothing or the
// timings' spent_ms add up to `budget_ms`. Never returns a shape that did
// not run with the default's bits; if the start itself cannot run, it is
// still returned, with best_ms 0. A winner other than `start` must then
// confirm its lead: the two are timed again in alternation, `confirm_rounds`
// times each, and the winner is kept only if its median beats the start's by
// the noise too (one lucky measurement under a power cap does not make a
// default).
TuneResult coordinate_descent(const LaunchShape& start, const TuneSpace& space,
                              const ShapeTimer& time, double noise, double budget_ms,
                              int confirm_rounds = 3);

} // namespace stencil
