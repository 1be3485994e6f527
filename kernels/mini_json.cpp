#include "mini_json.hpp"

#include <cstdlib>

namespace stencil::json {

const Value* Value::find(const std::string& key) const {
    if (kind != Object) return nullptr;
    const auto it = members.find(key);
    return it == members.end() ? nullptr : &it->second;
}

namespace {

class Parser {
public:
    explicit Parser(const std::string& text) : s_(text) {}

    bool document(Value& out, std::string& error) {
        const bool ok = value(out, 0) && (skip(), pos_ == s_.size() || fail("text after the end"));
        if (!ok) error = error_ + " at byte " + std::to_string(pos_);
        return ok;
    }

private:
    static constexpr int kMaxDepth = 64;

    bool fail(const std::string& why) {
        if (error_.empty()) error_ = why;
        return false;
    }
    void skip() {
        while (pos_ < s_.size() &&
               (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\r' || s_[pos_] == '\t'))
            ++pos_;
    }
    bool literal(const char* word) {
        const std::string w(word);
        if (s_.compare(pos_, w.size(), w) != 0) return fail("unexpected character");
        pos_ += w.size();
        return true;
    }
    bool string(std::string& out) {
        if (pos_ >= s_.size() || s_[pos_] != '"') return fail("expected a string");
        ++pos_;
        while (pos_ < s_.size() && s_[pos_] != '"') {
            char c = s_[pos_++];
            if (static_cast<unsigned char>(c) < 0x20) return fail("control character in a string");
            if (c == '\\') {
                if (pos_ >= s_.size()) break;
                const char e = s_[pos_++];
                switch (e) {
                case '"':
                case '\\':
                case '/':
                    c = e;
                    break;
                case 'n':
                    c = '\n';
                    break;
                case 't':
                    c = '\t';
                    break;
                case 'r':
                    c = '\r';
                    break;
                case 'b':
                    c = '\b';
                    break;
                case 'f':
                    c = '\f';
                    break;
                default:
                    return fail("unsupported escape in a string"); // \u is never written here
                }
            }
            out += c;
        }
        if (pos_ >= s_.size()) return fail("unterminated string");
        ++pos_;
        return true;
    }
    bool number(double& out) {
        const char* begin = s_.c_str() + pos_;
        char* end = nullptr;
        out = std::strtod(begin, &end);
        if (end == begin) return fail("unexpected character");
        pos_ += std::size_t(end - begin);
        return true;
    }
    bool value(Value& v, int depth) {
        if (depth > kMaxDepth) return fail("nested too deeply");
        skip();
        if (pos_ >= s_.size()) return fail("unexpected end");
        const char c = s_[pos_];
        if (c == '{') {
            v.kind = Value::Object;
            ++pos_;
            skip();
            if (pos_ < s_.size() && s_[pos_] == '}') return ++pos_, true;
            for (;;) {
                skip();
                std::string key;
                if (!string(key)) return false;
                skip();
                if (pos_ >= s_.size() || s_[pos_] != ':') return fail("expected ':'");
                ++pos_;
                if (!value(v.members[key], depth + 1)) return false;
                skip();
                if (pos_ < s_.size() && s_[pos_] == ',') {
                    ++pos_;
                    continue;
                }
                if (pos_ < s_.size() && s_[pos_] == '}') return ++pos_, true;
                return fail("expected ',' or '}'");
            }
        }
        if (c == '[') {
            v.kind = Value::Array;
            ++pos_;
            skip();
            if (pos_ < s_.size() && s_[pos_] == ']') return ++pos_, true;
            for (;;) {
                v.items.emplace_back();
                if (!value(v.items.back(), depth + 1)) return false;
                skip();
                if (pos_ < s_.size() && s_[pos_] == ',') {
                    ++pos_;
                    continue;
                }
                if (pos_ < s_.size() && s_[pos_] == ']') return ++pos_, true;
                return fail("expected ',' or ']'");
            }
        }
        if (c == '"') return v.kind = Value::String, string(v.text);
        if (c == 't') return v.kind = Value::Bool, v.boolean = true, literal("true");
        if (c == 'f') return v.kind = Value::Bool, v.boolean = false, literal("false");
        if (c == 'n') return v.kind = Value::Null, literal("null");
        return v.kind = Value::Number, number(v.number);
    }

    const std::string& s_;
    std::size_t pos_ = 0;
    std::string error_;
};

} // namespace

bool parse(const std::string& text, Value& out, std::string& error) {
    out = Value{};
    return Parser(text).document(out, error);
}

std::string quote(const std::string& s) {
    std::string q = "\"";
    for (const char c : s) {
        if (c == '"' || c == '\\') q += '\\';
        if (c == '\n') {
            q += "\\n";
            continue;
        }
        if (static_cast<unsigned char>(c) < 0x20) continue; // never in our strings
        q += c;
    }
    return q + "\"";
}

} // namespace stencil::json
