// A small, strict JSON reader for the project's own files (the tuning
// cache): objects, arrays, strings, numbers, true, false and null. Anything
// else, trailing text included, is an error with its byte offset, so a
// corrupt or truncated file is reported, never half-read.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace stencil::json {

struct Value {
    enum Kind { Null, Bool, Number, String, Array, Object } kind = Null;
    bool boolean = false;
    double number = 0;
    std::string text;
    std::vector<Value> items;             // Array
    std::map<std::string, Value> members; // Object

    // The member `key` of an object, or null when absent or not an object.
    const Value* find(const std::string& key) const;
};

// Parses `text`; on failure returns false and sets `error` to one line.
bool parse(const std::string& text, Value& out, std::string& error);

// `s` as a JSON string literal, quotes included.
std::string quote(const std::string& s);

} // namespace stencil::json
