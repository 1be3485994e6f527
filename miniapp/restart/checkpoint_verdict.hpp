// What made a checkpoint's field, as a restart inherits it (io/provenance.hpp).
// checkpoint.json says what its run knew when it wrote it: the reasons the
// field is not the one-domain answer, the test aids, and its check, which
// is "pending" where the run was to be checked at its end. That verdict
// comes after the checkpoints, so it is looked up in the record of the
// outputs the checkpoint continues (io/run_manifest.hpp): the folder its
// run wrote (checkpoint.json's "output"), the folder above its checkpoints
// folder (an older checkpoint's), and this run's --output. A failed check
// recorded there for the checkpoint's outputs (its lineage) is inherited;
// where no such record is found, nothing more is known, and nothing is
// added.
#pragma once

#include "config/options.hpp"
#include "io/checked_io.hpp"
#include "io/provenance.hpp"

#include <string>

namespace stencil {

// Collective: the provenance of the checkpoint in `dir` (`doc`, its
// checkpoint.json, the same on every rank), with a failed check of its
// outputs' record. One without a provenance (an older version's) is not
// taken for the one-domain answer.
Provenance checkpoint_provenance(const Json& doc, const std::string& dir, const Options& c);

// The "output" checkpoint.json names: the folder of the record of the run
// that writes the checkpoint, absolute (a restart may run elsewhere).
std::string record_folder_for_checkpoints(const Options& c);

} // namespace stencil
