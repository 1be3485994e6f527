#include "io/provenance.hpp"

#include <algorithm>

namespace stencil {
namespace {

void add_once(std::vector<std::string>& list, const std::string& item) {
    if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
}

std::string joined(const std::vector<std::string>& list, const char* separator) {
    std::string text;
    for (const std::string& item : list)
        text += (text.empty() ? "" : separator) + item;
    return text;
}

bool string_list(const Json& value, std::vector<std::string>& out) {
    if (!value.is_array()) return false;
    std::vector<std::string> list;
    for (const Json& item : value) {
        if (!item.is_string()) return false;
        list.push_back(item.get<std::string>());
    }
    out = std::move(list);
    return true;
}

} // namespace

void Provenance::add_reason(const std::string& why) {
    add_once(not_one_domain, why);
}

void Provenance::add_aid(const std::string& aid) {
    add_once(test_aids, aid);
}

void Provenance::set_check(bool passed, const std::string& why) {
    if (!passed) {
        check = "failed";
        add_reason(why);
    } else if (check == "pending") {
        check = "passed";
    }
}

void Provenance::inherit(const Provenance& earlier, int step) {
    for (const std::string& why : earlier.not_one_domain)
        add_reason(why.rfind("up to step ", 0) == 0
                       ? why
                       : "up to step " + std::to_string(step) + ": " + why);
    for (const std::string& aid : earlier.test_aids)
        add_aid(aid);
    // A failed check stays failed: this run's own, where asked, replaces
    // it at the end (it compares the whole run with one domain).
    if (earlier.check == "failed" && check != "pending") check = "failed";
}

Json Provenance::json() const {
    return {{"one_domain_answer", one_domain_answer()},
            {"not_one_domain_because", not_one_domain},
            {"test_aids", test_aids},
            {"check", check}};
}

bool Provenance::read(const Json& doc, Provenance& out) {
    const Json p = doc.is_object() ? doc.value("provenance", Json()) : Json();
    if (!p.is_object()) return false;
    Provenance read;
    const Json check = p.value("check", Json());
    if (!string_list(p.value("not_one_domain_because", Json()), read.not_one_domain) ||
        !string_list(p.value("test_aids", Json()), read.test_aids) || !check.is_string() ||
        p.value("one_domain_answer", Json()) != Json(read.not_one_domain.empty()))
        return false;
    read.check = check.get<std::string>();
    out = std::move(read);
    return true;
}

std::string Provenance::not_one_domain_text() const {
    if (one_domain_answer()) return {};
    return joined(not_one_domain, "; ") + ", so not the one-domain answer";
}

std::string Provenance::aids_text() const {
    return joined(test_aids, ", ");
}

} // namespace stencil
