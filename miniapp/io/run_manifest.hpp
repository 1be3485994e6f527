// The output folder's record of what this program wrote there
// (stencil-miniapp.run.json, rank 0's, rewritten whole after each output).
// A later run removes a file only where the record names it: a user's file
// of the same name is never taken for an output. The lineage is the run
// that began the outputs; every restart of it carries it on through the
// checkpoints, so a restart can tell its own run's outputs from another's.
// The state says how the last run ended, for tools/verify-output.py, and
// the provenance what its fields are (io/provenance.hpp).
#pragma once

#include "io/provenance.hpp"

#include <map>
#include <optional>
#include <string>

namespace stencil {

struct RunManifest {
    static constexpr const char* kFileName = "stencil-miniapp.run.json";

    std::string lineage;           // the run that began these outputs
    std::string run;               // the run that wrote here last
    int steps = 0;                 // the steps that run was asked for
    std::string state = "running"; // running, stopped (by a signal), failed, complete
    int step = 0;                  // the last step the folder's outputs are of
    // A stopped run's checkpoint at its stop, "" where it wrote none (it
    // cannot be resumed); absent in any other state, and in an older
    // version's record, which did not say.
    std::optional<std::string> stop_checkpoint;
    Provenance provenance; // of the fields the folder holds
    // Every file written here, and whether it is only the run's end's (the
    // traces, the shot gather, the last slice), which a longer run rewrites.
    std::map<std::string, bool> files;

    // Reads `folder`'s record into `out`: "" if there is one, "none" if
    // there is none, else why it cannot be read (damaged, not this
    // program's).
    static std::string read(const std::string& folder, RunManifest& out);
    // "" where `folder` has no record, or one of this program's in a
    // regular file; else why the run must not write its own there (a
    // user's file of that name, a link, a folder, a damaged record).
    static std::string in_the_way(const std::string& folder);
    // Writes it into `folder`, complete or not at all; "" or why not.
    std::string write(const std::string& folder) const;
    // Records `name` as written by this run (at its end only: `end`); a
    // file written during the run as well stays a file of its step.
    void add(const std::string& name, bool end);
};

} // namespace stencil
