// XDMF 3 descriptions of the snapshots, so that ParaView and VisIt open
// them as they are: each snapshot_NNNNNN.raw (or .h5) gets a
// snapshot_NNNNNN.xmf beside it, and snapshots.xmf lists them all as a time
// series. The XML names the grid (a 3DCoRectMesh: origin and spacing in
// metres), the element type, and points at the data by a name relative to
// itself: a raw file as a Binary data item from byte 0 in its byte order,
// an HDF5 file's dataset as an HDF data item (file.h5:/p). Nothing is
// copied, and a folder moved elsewhere still opens.
#pragma once

#include "precision.hpp"

#include <array>
#include <string>
#include <vector>

namespace stencil {

// One snapshot as the XML describes it.
struct XdmfSnapshot {
    std::string file;          // the data file's name, relative to the .xmf
    std::array<int, 3> dims{}; // cells along x, y, z (the file is x fastest)
    double spacing = 0;        // metres, every direction
    Precision precision = Precision::FP32;
    int step = 0;
    double time = 0;     // seconds
    std::string dataset; // an HDF5 file's dataset ("/p"); "": a raw file
};

// "Little" or "Big": this machine's byte order, which the data files are in.
const char* native_endian();

// The .xmf beside one snapshot.
std::string snapshot_xdmf(const XdmfSnapshot& snapshot);

// snapshots.xmf: every snapshot in `series`, in order, as one temporal
// collection.
std::string series_xdmf(const std::vector<XdmfSnapshot>& series);

} // namespace stencil
