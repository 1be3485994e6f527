// What names a checkpoint and its run, and what a checkpoint folder holds,
// by owner (shared by checkpoint.cpp and checkpoint_folder.cpp).
//
// A run is known by its settings: the CRC-32 of everything in its
// configuration that changes its result or its outputs (identity below).
// Two runs with the same settings compute the same bits, so a restart
// continues the checkpoints of its settings, whichever process wrote them,
// and the clean-up touches no others. checkpoint.json also names the
// process that wrote it (RunPlan::run_id), and carries a CRC-32 of its own
// text, so that a hand-changed step or setting does not verify.
#pragma once

#include "config/model.hpp"
#include "config/options.hpp"
#include "config/run_context.hpp"
#include "config/run_plan.hpp"
#include "io/checked_io.hpp"

#include <string>
#include <vector>

namespace stencil {

constexpr const char* kCheckpointProgram = "stencil-miniapp checkpoint";
// The files a checkpoint is written as, besides checkpoint.json: both time
// levels, and the receivers' traces where the run has receivers.
constexpr const char* kLevels[2] = {"p.raw", "p_prev.raw"};
constexpr const char* kTraces = "traces.bin";

// Everything that changes the result, the outputs included: a checkpoint
// continues only a run that agrees on all of it, so the continued run's
// snapshots, slices and traces are the uninterrupted run's. Timing options
// (steps, comm, overlap, depth, graphs, tuning, ranks) may differ: none of
// them changes a bit.
Json checkpoint_identity(const RunContext& run);

// The CRC-32 of an identity, in hex: the run's settings, by one word.
std::string settings_id(const Json& identity);

// "its f0_hz is 10.0, this run's is 12.0" for the first field of `mine`
// that `theirs` gives otherwise; "" if none.
std::string first_difference(const Json& theirs, const Json& mine);

// "step_000020".
std::string step_name(int step);

// step_NNNNNN (partial false) or step_NNNNNN.partial (true); false for any
// other name.
bool parse_step_name(const std::string& name, int& step, bool& partial);

// Adds "crc32": the CRC-32 of the rest of `doc` as compact JSON text.
void seal(Json& doc);

// Checks and removes `doc`'s "crc32"; "" if it matches the rest, else why.
std::string unseal(Json& doc);

// What is named step_NNNNNN or step_NNNNNN.partial in a checkpoint folder.
struct StepFolder {
    std::string path, name;
    int step = 0;
    bool partial = false;
    bool folder = false; // a folder, not a file
    bool link = false;   // a symbolic link: nothing is removed through it
    // Not readable as a checkpoint, but laid out as one (p.raw beside a
    // checkpoint.json, or both levels without one): this program's,
    // damaged (a truncated or deleted checkpoint.json).
    bool damaged = false;
    bool checkpoint = false; // its checkpoint.json is this program's
    bool verified = false;   // complete, sealed, and its folder's name says its step
    std::string settings, run;
    std::vector<std::string> files; // what checkpoint.json lists
    Json configuration;
};

// Rank 0: what the folder at `path` is (checkpoint false if not ours).
StepFolder read_step_folder(const std::string& path);

// Rank 0: the step folders in `folder` (and files so named), by step, a
// complete one before a .partial one of the same step.
std::vector<StepFolder> step_folders(const std::string& folder);

// Rank 0: removes checkpoint `f` as far as it is provably this program's:
// the files its checkpoint.json lists, the files a checkpoint is written as
// (and their .partial names), checkpoint.json, then the folder if nothing
// else is in it. Nothing through a link. Returns "" or a note naming what
// was left and why.
std::string remove_checkpoint(const StepFolder& f);

// Rank 0: moves the step folder at `path` aside, whole, as PATH.kept, or
// PATH.kept.N where that is taken (the first free N: what an earlier one
// moved there is kept too), named in `aside`; "" or why it could not.
std::string move_aside(const std::string& path, std::string& aside);

// Rank 0: a checkpoint a restart passed by (`why`: it does not verify, or
// it continues a step the restart went back behind), moved aside whole
// (move_aside) with kSetAsideNote in it saying why, so that no later
// checkpoint of the run replaces or removes it, and
// tools/verify-output.py tells it from a damaged checkpoint. The note line
// for stderr: where it went, or why it stayed.
inline constexpr const char* kSetAsideNote = "set-aside.txt";
std::string set_aside(const std::string& path, const std::string& why);

// Rank 0: makes room for this run's checkpoint folder `path` (settings
// `mine`): removes one this run's settings left (an earlier try), moving
// it aside as NAME.kept where it also holds files the program did not
// write, or a link (`notes` says so); or says in one line why a folder it
// did not write is in the way.
std::string clear_way(const std::string& path, const std::string& mine,
                      std::vector<std::string>& notes);

// Rank 0: removes all but the two newest checkpoints of `mine` that
// verify (remove_checkpoint); one that does not is left alone, and so is a
// link, with a note.
void keep_two_newest(const std::string& folder, const std::string& mine);

} // namespace stencil
