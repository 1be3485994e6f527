// Where a field came from, said by every file that holds one (checkpoint.json,
// each sidecar, the folder's record, the JSON report): whether it is the
// one-domain answer (the bits any decomposition gives), and if not, why;
// the test aids planted in the runs that made it; and the verdict of its
// checks. A field continued from a checkpoint inherits the checkpoint's: a
// restart with every halo exchanged cannot undo steps whose halos were
// dropped, so a checksum, a snapshot or a folder never passes for the
// answer a wrong leg of its run made.
#pragma once

#include "io/checked_io.hpp"

#include <string>
#include <vector>

namespace stencil {

struct Provenance {
    // Why the field is not the one-domain answer, one phrase each
    // ("--comm none: no message moved between ranks"); none: it is.
    std::vector<std::string> not_one_domain;
    // The test aids planted in the runs that made the field, as the
    // options name them (--inject-fault drop-face), each once.
    std::vector<std::string> test_aids;
    // The run's checks (--check, and --poison-halo's poisoned cell):
    // "none" asked, "pending" (asked, and given at the run's end, so a
    // file written during the run cannot know), "passed" or "failed".
    std::string check = "none";

    bool one_domain_answer() const { return not_one_domain.empty(); }
    // Adds a reason, or an aid, once.
    void add_reason(const std::string& why);
    void add_aid(const std::string& aid);
    // A check's verdict: a failure is kept, with `why` as a reason; a pass
    // settles a pending check.
    void set_check(bool passed, const std::string& why);
    // What made the checkpoint at `step` (`earlier`) goes into this run's
    // field: its reasons (as "up to step N: ..."), its aids, and a failed
    // check. A pass or a pending check is of the steps before, and is not
    // carried on.
    void inherit(const Provenance& earlier, int step);

    Json json() const;
    // `doc`'s "provenance" into `out`; false where `doc` has none or a
    // malformed one (`out` is then left as it was).
    static bool read(const Json& doc, Provenance& out);
    // One phrase for a line of text: "REASON; REASON, so not the one-domain
    // answer", or "" where it is.
    std::string not_one_domain_text() const;
    // "--inject-fault drop-face, --poison-halo", or "" where none.
    std::string aids_text() const;
};

} // namespace stencil
