// PNG images of 2D arrays in a diverging seismic colour map (blue - white -
// red), symmetric about zero and clipped at a percentile of |value|, with
// overlays for the source and the sponge. Written with stb's image writer
// (Debian's libstb-dev); without it, images_available() is false.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace stencil {

bool images_available();

struct Image {
    int width = 0, height = 0;
    std::vector<float> values; // row-major, row 0 at the top
    struct Marker {
        int x, y; // a source: a black cross
    };
    struct Outline {
        int x0, y0, x1, y1; // a rectangle drawn dashed (the sponge's inner edge)
    };
    std::vector<Marker> markers;
    std::vector<Outline> outlines;
};

// |value| at this percentile (0..100) of the image: the colour scale's clip.
float clip_at_percentile(const std::vector<float>& values, double percentile);

// Writes `image` as a PNG, upscaled so its shorter side is at least 256
// pixels, complete or not at all (checked_io.hpp). Returns an empty
// string, or why it could not.
std::string write_seismic_png(const std::string& path, const Image& image, float clip);

// At most how many bytes write_seismic_png writes for a width x height image.
std::uint64_t png_size_bound(int width, int height);

} // namespace stencil
