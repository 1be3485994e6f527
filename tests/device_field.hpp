// A test field on the device (host memory on the HOST back-end), filled from
// and read back into a host field.
#pragma once

#include "memory.hpp"
#include "test_support.hpp"

namespace stencil::test {

template <class T>
struct DeviceField {
    Layout layout;
    DeviceArray<T> storage;
    explicit DeviceField(const HostField<T>& h) : layout(h.layout), storage(h.storage.size()) {
        copy_to_device(storage, h.storage.data());
    }
    FieldView<T> view() { return view_of(storage.data(), layout); }
    void read_into(HostField<T>& h) const { copy_to_host(h.storage.data(), storage); }
};

} // namespace stencil::test
