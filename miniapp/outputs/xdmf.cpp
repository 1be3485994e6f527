#include "outputs/xdmf.hpp"

#include <cstdint>
#include <cstdio>
#include <cstring>

namespace stencil {
namespace {

// A number as XML text, exact for a double (17 significant digits).
std::string number(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", value);
    return text;
}

// Where the values are: a raw file in this machine's byte order from
// byte 0, or a dataset of an HDF5 file (which knows its own byte order).
std::string data_xml(const XdmfSnapshot& s) {
    if (!s.dataset.empty()) return "Format=\"HDF\">" + s.file + ":" + s.dataset;
    return std::string("Format=\"Binary\" Endian=\"") + native_endian() + "\" Seek=\"0\">" + s.file;
}

// One uniform grid, indented by `pad`. XDMF lists dimensions, origin and
// spacing slowest axis first: z, y, x. The values sit on the grid's points
// (Center="Node"): cell (i, j, k) is the point (i h, j h, k h).
std::string grid_xml(const XdmfSnapshot& s, const std::string& pad) {
    const std::string dims = std::to_string(s.dims[2]) + " " + std::to_string(s.dims[1]) + " " +
                             std::to_string(s.dims[0]);
    const std::string h = number(s.spacing);
    const int bytes = s.precision == Precision::FP64 ? 8 : 4;
    return pad + "<Grid Name=\"step " + std::to_string(s.step) + "\" GridType=\"Uniform\">\n" +
           pad + "  <Time Value=\"" + number(s.time) + "\"/>\n" + pad +
           "  <Topology TopologyType=\"3DCoRectMesh\" Dimensions=\"" + dims + "\"/>\n" + pad +
           "  <Geometry GeometryType=\"ORIGIN_DXDYDZ\">\n" + pad +
           "    <DataItem Name=\"Origin\" Dimensions=\"3\" NumberType=\"Float\" Precision=\"8\" "
           "Format=\"XML\">0 0 0</DataItem>\n" +
           pad +
           "    <DataItem Name=\"Spacing\" Dimensions=\"3\" NumberType=\"Float\" Precision=\"8\" "
           "Format=\"XML\">" +
           h + " " + h + " " + h + "</DataItem>\n" + pad + "  </Geometry>\n" + pad +
           "  <Attribute Name=\"p\" AttributeType=\"Scalar\" Center=\"Node\">\n" + pad +
           "    <DataItem Dimensions=\"" + dims + "\" NumberType=\"Float\" Precision=\"" +
           std::to_string(bytes) + "\" " + data_xml(s) + "</DataItem>\n" + pad +
           "  </Attribute>\n" + pad + "</Grid>\n";
}

// `hdf5`: the snapshots are HDF5 files, else raw ones.
std::string document(const std::string& body, bool hdf5) {
    return std::string("<?xml version=\"1.0\" ?>\n") +
           "<!-- Written by stencil-miniapp: the pressure p of " + (hdf5 ? "an HDF5" : "a raw") +
           " snapshot, in metres and "
           "seconds. -->\n"
           "<Xdmf Version=\"3.0\">\n"
           "  <Domain>\n" +
           body +
           "  </Domain>\n"
           "</Xdmf>\n";
}

} // namespace

const char* native_endian() {
    const std::uint16_t one = 1;
    unsigned char first = 0;
    std::memcpy(&first, &one, 1);
    return first == 1 ? "Little" : "Big";
}

std::string snapshot_xdmf(const XdmfSnapshot& snapshot) {
    return document(grid_xml(snapshot, "    "), !snapshot.dataset.empty());
}

std::string series_xdmf(const std::vector<XdmfSnapshot>& series) {
    std::string grids;
    for (const XdmfSnapshot& s : series)
        grids += grid_xml(s, "      ");
    return document("    <Grid Name=\"p\" GridType=\"Collection\" CollectionType=\"Temporal\">\n" +
                        grids + "    </Grid>\n",
                    !series.empty() && !series.front().dataset.empty());
}

} // namespace stencil
