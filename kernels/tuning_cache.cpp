#include "tuning_cache.hpp"

#include "device.hpp"
#include "mini_json.hpp"

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

constexpr const char* kFormat = "stencil-miniapp tuning cache 1";

// Why a parsed document is not a cache for `identity`, or empty when it is.
std::string mismatch(const json::Value& doc, const TuneIdentity& identity) {
    const json::Value* format = doc.find("format");
    if (!format || format->text != kFormat) return "it is not a tuning cache of this format";
    const std::pair<const char*, const std::string*> fields[] = {
        {"device", &identity.device},
        {"arch", &identity.arch},
        {"runtime", &identity.runtime},
        {"kernels_revision", &identity.revision}};
    for (const auto& [name, mine] : fields) {
        const json::Value* v = doc.find(name);
        if (!v || v->kind != json::Value::String) return std::string("it has no ") + name;
        if (v->text != *mine)
            return std::string("it was made for ") + name + " '" + v->text + "', this is '" +
                   *mine + "'";
    }
    return {};
}

int integer(const json::Value& object, const char* key, bool& ok) {
    const json::Value* v = object.find(key);
    if (!v || v->kind != json::Value::Number || v->number != double(int(v->number))) {
        ok = false;
        return 0;
    }
    return int(v->number);
}

double number(const json::Value& object, const char* key, bool& ok) {
    const json::Value* v = object.find(key);
    if (!v || v->kind != json::Value::Number) {
        ok = false;
        return 0;
    }
    return v->number;
}

// One entry, checked field by field; false if any is missing or wrong.
bool read_entry(const json::Value& e, TuneEntry& out) {
    bool ok = e.kind == json::Value::Object;
    const json::Value* kernel = e.find("kernel");
    const json::Value* precision = e.find("precision");
    const json::Value* box = e.find("box");
    ok = ok && kernel && kernel->kind == json::Value::String && precision &&
         parse_precision(precision->text, out.key.precision) && box &&
         box->kind == json::Value::Array && box->items.size() == 3;
    if (!ok) return false;
    out.key.kernel = kernel->text;
    for (int a = 0; a < 3; ++a) {
        const json::Value& n = box->items[std::size_t(a)];
        if (n.kind != json::Value::Number || n.number < 1) return false;
        out.key.box[std::size_t(a)] = int(n.number);
    }
    out.key.radius = integer(e, "radius", ok);
    out.shape = {integer(e, "block_x", ok), integer(e, "block_y", ok), integer(e, "window", ok),
                 integer(e, "rows", ok)};
    out.ms = number(e, "ms", ok);
    out.default_ms = number(e, "default_ms", ok);
    const bool wave = out.key.kernel == "wave";
    return ok && (wave || out.key.kernel == "fused_xyz") && out.key.radius >= kMinRadius &&
           out.key.radius <= kMaxRadius &&
           fits(out.shape, out.key.radius, out.key.precision, wave).empty();
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
    std::string text, error;
    if (!read_file(path, text)) return ignored("it cannot be read");
    json::Value doc;
    if (!json::parse(text, doc, error)) return ignored("not valid JSON (" + error + ")");
    if (const std::string why = mismatch(doc, identity); !why.empty()) return ignored(why);
    const json::Value* entries = doc.find("entries");
    if (!entries || entries->kind != json::Value::Array) return ignored("it has no entries");
    for (const json::Value& e : entries->items) {
        TuneEntry entry;
        if (!read_entry(e, entry))
            return ignored("entry " + std::to_string(cache.entries_.size() + 1) +
                           " is incomplete or names a shape these kernels cannot launch");
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
    std::ostringstream j;
    j << "{\n  \"format\": " << json::quote(kFormat)
      << ",\n  \"device\": " << json::quote(identity_.device)
      << ",\n  \"arch\": " << json::quote(identity_.arch)
      << ",\n  \"runtime\": " << json::quote(identity_.runtime)
      << ",\n  \"kernels_revision\": " << json::quote(identity_.revision) << ",\n  \"entries\": [";
    for (std::size_t n = 0; n < entries_.size(); ++n) {
        const TuneEntry& e = entries_[n];
        char times[96];
        std::snprintf(times, sizeof times, "\"ms\": %.6g, \"default_ms\": %.6g", e.ms,
                      e.default_ms);
        j << (n ? ",\n    " : "\n    ") << "{\"kernel\": " << json::quote(e.key.kernel)
          << ", \"radius\": " << e.key.radius
          << ", \"precision\": " << json::quote(precision_name(e.key.precision)) << ", \"box\": ["
          << e.key.box[0] << ", " << e.key.box[1] << ", " << e.key.box[2]
          << "], \"block_x\": " << e.shape.block_x << ", \"block_y\": " << e.shape.block_y
          << ", \"window\": " << e.shape.window << ", \"rows\": " << e.shape.rows << ", " << times
          << "}";
    }
    j << (entries_.empty() ? "]\n}\n" : "\n  ]\n}\n");
    return j.str();
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
