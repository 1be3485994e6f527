// The JSON report: the run's context, the settings asked for, the shapes,
// phases and outcome, written complete or not at all.
#include "report/report.hpp"

#include "config/model.hpp"
#include "config/option_table.hpp"
#include "io/checked_io.hpp"
#include "stencil_version.hpp"

namespace stencil {
namespace {

// A launch shape's coordinates, as the JSON report names them.
Json shape_json(const LaunchShape& t) {
    return {{"block_x", t.block_x}, {"block_y", t.block_y},    {"window", t.window},
            {"rows", t.rows},       {"planes_ahead", t.ahead}, {"body", wave_body_name(t.body)}};
}

// Rank 0's boxes and the launch shape each runs, as the JSON report lists them.
Json shapes_json(const std::vector<ShapeChoice>& choices) {
    Json shapes = Json::array();
    for (const ShapeChoice& sc : choices) {
        Json shape = {{"box", sc.extents}};
        shape.update(shape_json(sc.shape));
        shape["source"] = shape_source_name(sc.source);
        shapes.push_back(shape);
    }
    return shapes;
}

Json phases_json(const Report& r) {
    Json phases = Json::object();
    for (const PhaseStats& p : r.phases)
        phases[p.name] = {{"min", p.min}, {"avg", p.avg}, {"max", p.max}};
    return phases;
}

// Rank 0's halo faces and how they were packed.
Json halo_faces_json(const Report& r) {
    return {{"halo_faces_rank0", r.faces},        {"self_faces_rank0", r.self_faces},
            {"face_routes_rank0", r.face_routes}, {"fused_pack", r.fused_pack},
            {"halo_pack", halo_pack(r).first},    {"pack_reason", halo_pack(r).second}};
}

// What the run asked to be told besides its speed: where the timeline went,
// whether --check found it equal to one domain, the checksum.
void add_outcome(Json& doc, const Report& r) {
    if (!r.timeline.empty()) doc["timeline"] = r.timeline;
    if (r.checked)
        doc["check"] = {{"cells_differing", r.cells_differing},
                        {"cells", r.cells_checked},
                        {"bitwise_equal", r.cells_differing == 0},
                        {"boundaries", r.reach.boundaries},
                        {"boundaries_reached", r.reach.reached},
                        {"steps_to_reach_all", r.reach.steps_for_all}};
    if (r.has_checksum) {
        char hex[17];
        std::snprintf(hex, sizeof hex, "%016llx", (unsigned long long)r.checksum);
        doc["checksum"] = hex;
        doc["checksum_is_one_domain_answer"] = r.one_domain_answer();
    }
    doc["provenance"] = r.provenance.json();
}

// The outputs' write times (rank 0's clock; null where the run wrote none).
Json output_times_json(const Report& r) {
    const OutputTimes& t = r.outputs;
    const int n = t.snapshots;
    return {{"snapshots", n},
            {"snapshot_total", t.snapshot_seconds},
            {"snapshot_each", n > 0 ? Json(t.snapshot_seconds / n) : Json(nullptr)},
            {"traces", t.traces ? Json(t.trace_seconds) : Json(nullptr)}};
}

} // namespace

// The settings as asked for ("auto" where the run chose). The scaling
// tools group runs into series by these: what auto chose may differ from
// one rank count to the next, and the runs are still one study.
// A setting left to the run ("auto"), or the number asked for.
Json auto_or(int asked) {
    return asked == 0 ? Json("auto") : Json(asked);
}

Json asked_json(const Options& c) {
    const LaunchShape& t = c.shape;
    return {{"comm", c.comm.automatic ? "auto" : comm_mode_name(c.comm.mode)},
            {"overlap", choice_name(c.overlap)},
            {"halo_depth", auto_or(c.halo_depth)},
            {"pack", choice_name(c.pack)},
            // How the steps were launched, so that a study tells a forced
            // launch from a chosen one (jobscripts/report_rules.py).
            {"graphs", choice_name(c.graphs)},
            {"steps_per_graph", auto_or(c.steps_per_graph)},
            {"update", wave_body_name(t.body)},
            {"shape",
             {{"block_x", auto_or(t.block_x)},
              {"block_y", auto_or(t.block_y)},
              {"window", auto_or(t.window)},
              {"rows", auto_or(t.rows)},
              {"planes_ahead", auto_or(t.ahead)}}},
            {"slab_x", auto_or(c.slab_x)},
            {"tuning", c.tuning_mode}};
}

Json run_context_json(const Report& r) {
    const Options& c = r.options;
    const std::string planted = c.aids.planted();
    return {{"program", "stencil-miniapp"},
            {"label", c.label},
            {"revision", r.revision},
            {"backend", r.backend},
            {"devices", r.devices},
            {"ranks", r.ranks},
            {"procs", r.dims},
            {"grid", r.grid},
            {"periodic", periodic_axes(c.periodic)},
            {"radius", c.radius},
            {"precision", precision_name(c.precision)},
            {"comm", r.comm_mode},
            {"overlap", r.plan.overlap},
            {"overlap_reason", r.plan.overlap_reason},
            {"fused_pack", r.fused_pack},
            {"halo_depth", r.halo_depth},
            {"slab_x", r.plan.overlap && r.slab_x > 0 ? Json(r.slab_x) : Json(nullptr)},
            {"asked", asked_json(c)},
            {"graphs", r.graphs},
            {"steps_per_graph", r.steps_per_graph},
            {"test_aids", planted.empty() ? Json(nullptr) : Json(planted)}};
}

std::string write_json(const Report& r, const std::string& path) {
    const Options& c = r.options;
    const PhaseStats& step = r.phases.back();
    const Json hidden = r.hidden_fraction ? Json(*r.hidden_fraction) : Json(nullptr);
    Json tuning = shape_json(r.shape);
    tuning["window_chosen"] = c.shape.window ? "by --window" : "per box";
    Json doc = run_context_json(r);
    doc.update(Json{{"local_rank0", r.local_rank0},
                    {"steps", c.steps},
                    {"warmup", c.warmup},
                    {"comm_reason", r.comm_reason},
                    {"halo_depth_reason", r.plan.halo_depth_reason},
                    {"exchanges_per_step", 1.0 / r.halo_depth},
                    {"redundant_cell_share", r.redundant_share},
                    {"subnormals", r.subnormals},
                    {"omp_threads_per_rank", r.omp_threads > 0 ? Json(r.omp_threads) : Json()},
                    {"omp_threads_reason", r.omp_reason},
                    {"model", model_name(c, r.plan)},
                    {"spacing_m", c.spacing},
                    {"dt_s", r.physics.dt},
                    {"f0_hz", r.physics.f0},
                    {"sponge", c.sponge},
                    {"tuning", tuning},
                    {"tuning_mode", c.tuning_mode},
                    {"shapes", shapes_json(r.shapes)},
                    {"phases_ms", phases_json(r)},
                    {"gcells_per_s_total", r.gcells_total},
                    {"gcells_per_s_per_rank", r.gcells_per_rank},
                    {"effective_gb_per_s_per_rank", r.gbs_per_rank},
                    {"exchange_ms", r.halo_ms},
                    {"exchange_hidden_fraction", hidden},
                    {"pinned_host_bytes", r.pinned_bytes},
                    {"imbalance", step.avg > 0 ? step.max / step.avg : 1.0}});
    doc.update(halo_faces_json(r));
    doc.update(timing_trust_json(r.trust));
    doc["trials"] = trials_json(r.plan.trials);
    add_outcome(doc, r);
    doc["version"] = STENCIL_VERSION; // the project's; "revision" is its source tree's
    doc["output_seconds"] = output_times_json(r);
    // Never over a file the user did not ask to replace (--output-force).
    return write_user_file(path, json_text(doc), c.output_force);
}

} // namespace stencil
