#include "tuning_cache.hpp"

#include "device.hpp"

#include <nlohmann/json.hpp>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

#ifndef STENCIL_KERNELS_REVISION
#define STENCIL_KERNELS_REVISION "unknown"
#endif

namespace stencil {
namespace {

using Json = nlohmann::ordered_json;

constexpr const char* kFormat = "stencil-miniapp tuning cache 1";

// Why a parsed document is not a cache for `identity`, or empty when it is.
std::string mismatch(const Json& doc, const TuneIdentity& identity) {
    if (!doc.is_object() || doc.value("format", Json()) != kFormat)
        return "it is not a tuning cache of this format";
    const std::pair<const char*, const std::string*> fields[] = {
        {"device", &identity.device},
        {"arch", &identity.arch},
        {"runtime", &identity.runtime},
        {"kernels_revision", &identity.revision}};
    for (const auto& [name, mine] : fields) {
        const auto v = doc.find(name);
        if (v == doc.end() || !v->is_string()) return std::string("it has no ") + name;
        if (v->get<std::string>() != *mine)
            return std::string("it was made for ") + name + " '" + v->get<std::string>() +
                   "', this is '" + *mine + "'";
    }
    return {};
}

int integer(const Json& object, const char* key, bool& ok) {
    const auto v = object.find(key);
    if (v == object.end() || !v->is_number_integer() || *v < 0 || *v > 1 << 30) {
        ok = false;
        return 0;
    }
    return v->get<int>();
}

double number(const Json& object, const char* key, bool& ok) {
    const auto v = object.find(key);
    if (v == object.end() || !v->is_number()) {
        ok = false;
        return 0;
    }
    return v->get<double>();
}

// One entry, checked field by field; false if any is missing or wrong.
bool read_entry(const Json& e, TuneEntry& out) {
    if (!e.is_object()) return false;
    const Json kernel = e.value("kernel", Json()), precision = e.value("precision", Json()),
               box = e.value("box", Json());
    if (!kernel.is_string() || !parse_fused_kernel(kernel.get<std::string>(), out.key.kernel) ||
        !precision.is_string() ||
        !parse_precision(precision.get<std::string>(), out.key.precision) || !box.is_array() ||
        box.size() != 3)
        return false;
    for (int a = 0; a < 3; ++a) {
        const Json& n = box[std::size_t(a)];
        if (!n.is_number_integer() || n < 1 || n > 1 << 30) return false;
        out.key.box[std::size_t(a)] = n.get<int>();
    }
    bool ok = true;
    out.key.radius = integer(e, "radius", ok);
    // "ahead" and "body" came later than the other fields: an entry without
    // them runs one plane on the tile, as every entry did then.
    out.shape = {integer(e, "block_x", ok),
                 integer(e, "block_y", ok),
                 integer(e, "window", ok),
                 integer(e, "rows", ok),
                 e.contains("ahead") ? integer(e, "ahead", ok) : 1,
                 WaveBody::Tile};
    if (e.contains("body")) {
        const Json body = e["body"];
        ok = ok && body.is_string() && parse_wave_body(body.get<std::string>(), out.shape.body) &&
             out.shape.body != WaveBody::Auto;
    }
    out.ms = number(e, "ms", ok);
    out.default_ms = number(e, "default_ms", ok);
    return ok && out.key.radius >= kMinRadius && out.key.radius <= kMaxRadius &&
           fits(out.shape, out.key.radius, out.key.precision, out.key.kernel).empty();
}

bool read_file(const std::string& path, std::string& text) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    std::ostringstream all;
    all << in.rdbuf();
    text = all.str();
    return !in.bad();
}

} // namespace

std::string default_tuning_cache_path() {
    if (const char* path = std::getenv("STENCIL_TUNING_CACHE"); path && *path) return path;
    const std::string tail = "/stencil-miniapp/tuning-cache.json";
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return xdg + tail;
    const char* home = std::getenv("HOME");
    return std::string(home && *home ? home : ".") + "/.cache" + tail;
}

std::string tuning_mode_problem(const std::string& value) {
    if (!value.empty() &&
        (std::isspace((unsigned char)value.front()) || std::isspace((unsigned char)value.back())))
        return "'" + value + "' begins or ends with a blank; write off, auto or the cache file";
    std::string lower = value;
    for (char& ch : lower)
        ch = char(std::tolower((unsigned char)ch));
    if ((lower == "off" || lower == "auto") && lower != value)
        return value +
               ": the modes are off and auto, in lower case; for a cache file of that "
               "name, write ./" +
               value;
    return {};
}

const char* kernels_revision() {
    return STENCIL_KERNELS_REVISION;
}

TuneIdentity current_identity() {
    const DeviceInfo info = device_info(0);
    return {info.name, info.arch, info.runtime, kernels_revision()};
}

TuningCache TuningCache::load(const std::string& path, const TuneIdentity& identity,
                              std::string& note) {
    note.clear();
    TuningCache cache(identity);
    if (access(path.c_str(), F_OK) != 0) return cache; // none yet: nothing to say
    auto ignored = [&](const std::string& why) {
        note = "tuning cache " + path + " ignored: " + why;
        return TuningCache(identity);
    };
    struct stat info {};
    if (stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode))
        return ignored("a directory; name the cache file");
    std::string text;
    if (!read_file(path, text)) return ignored("it cannot be read");
    Json doc;
    try {
        doc = Json::parse(text);
    } catch (const Json::parse_error& e) {
        return ignored("not valid JSON (at byte " + std::to_string(e.byte) + ")");
    }
    if (const std::string why = mismatch(doc, identity); !why.empty()) return ignored(why);
    const auto entries = doc.find("entries");
    if (entries == doc.end() || !entries->is_array()) return ignored("it has no entries");
    for (const Json& e : *entries) {
        TuneEntry entry;
        const std::string number = "entry " + std::to_string(cache.entries_.size() + 1);
        if (!read_entry(e, entry))
            return ignored(number + " is incomplete or names a shape these kernels cannot launch");
        // Two shapes for one kernel and box: which the user meant is not ours
        // to guess (save() never writes one twice).
        if (cache.find(entry.key))
            return ignored(number + " repeats an earlier one's kernel, radius, precision and box");
        cache.put(entry);
    }
    return cache;
}

const TuneEntry* TuningCache::find(const TuneKey& key) const {
    for (const TuneEntry& e : entries_)
        if (e.key == key) return &e;
    return nullptr;
}

void TuningCache::put(const TuneEntry& entry) {
    for (TuneEntry& e : entries_)
        if (e.key == entry.key) {
            e = entry;
            return;
        }
    entries_.push_back(entry);
}

std::string TuningCache::to_json() const {
    Json doc = {{"format", kFormat},
                {"device", identity_.device},
                {"arch", identity_.arch},
                {"runtime", identity_.runtime},
                {"kernels_revision", identity_.revision},
                {"entries", Json::array()}};
    for (const TuneEntry& e : entries_)
        doc["entries"].push_back(
            {{"kernel", fused_kernel_name(e.key.kernel)},
             {"radius", e.key.radius},
             {"precision", precision_name(e.key.precision)},
             {"box", e.key.box},
             {"block_x", e.shape.block_x},
             {"block_y", e.shape.block_y},
             {"window", e.shape.window},
             {"rows", e.shape.rows},
             {"ahead", e.shape.planes_ahead()},
             {"body",
              wave_body_name(e.shape.body == WaveBody::Cells ? WaveBody::Cells : WaveBody::Tile)},
             {"ms", e.ms},
             {"default_ms", e.default_ms}});
    return doc.dump(2) + "\n";
}

std::string TuningCache::save(const std::string& path) const {
    // What others wrote meanwhile (same identity) stays; our entries win.
    std::string note;
    TuningCache merged = load(path, identity_, note);
    for (const TuneEntry& e : entries_)
        merged.put(e);
    const std::string text = merged.to_json();
    // The folder, one level at a time (an existing one is fine).
    for (std::size_t slash = path.find('/', 1); slash != std::string::npos;
         slash = path.find('/', slash + 1))
        mkdir(path.substr(0, slash).c_str(), 0755);
    const std::string temporary = path + ".tmp." + std::to_string(getpid());
    std::FILE* f = std::fopen(temporary.c_str(), "wb");
    if (!f) return "cannot write the tuning cache " + temporary;
    const bool written = std::fwrite(text.data(), 1, text.size(), f) == text.size();
    const bool synced = std::fflush(f) == 0 && fsync(fileno(f)) == 0;
    const bool closed = std::fclose(f) == 0;
    if (!written || !synced || !closed || std::rename(temporary.c_str(), path.c_str()) != 0) {
        std::remove(temporary.c_str());
        return "cannot write the tuning cache " + path;
    }
    return {};
}

} // namespace stencil
