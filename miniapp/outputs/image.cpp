#include "outputs/image.hpp"

#include "io/checked_io.hpp"

#include <algorithm>
#include <cmath>

#if STENCIL_HAVE_STB
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STBI_WRITE_NO_STDIO // every file is written through write_file_completely
#include <stb_image_write.h>
#endif

namespace stencil {
namespace {

struct Rgb {
    unsigned char r, g, b;
};

// matplotlib's "seismic": dark blue, blue, white, red, dark red over [-1, 1].
Rgb seismic(float t) {
    t = std::clamp(t, -1.0f, 1.0f);
    const float stops[5][3] = {{0, 0, 0.3f}, {0, 0, 1}, {1, 1, 1}, {1, 0, 0}, {0.5f, 0, 0}};
    const float position = (t + 1.0f) * 2.0f; // 0..4
    const int low = std::min(int(position), 3);
    const float f = position - low;
    auto channel = [&](int c) {
        return static_cast<unsigned char>(
            std::lround(255 * (stops[low][c] * (1 - f) + stops[low + 1][c] * f)));
    };
    return {channel(0), channel(1), channel(2)};
}

// The upscaling factor that makes the shorter side at least 256 pixels,
// at most 8, and never the longer side above 8192 by it.
int upscale(int width, int height) {
    const int shorter = std::max(1, std::min(width, height)), longer = std::max(width, height);
    const int most = std::clamp(8192 / std::max(1, longer), 1, 8);
    return std::clamp((256 + shorter - 1) / shorter, 1, most);
}

#if STENCIL_HAVE_STB
void append_to_string(void* context, void* data, int size) {
    static_cast<std::string*>(context)->append(static_cast<const char*>(data), std::size_t(size));
}
#endif

} // namespace

std::uint64_t png_size_bound(int width, int height) {
    const std::uint64_t scale = std::uint64_t(upscale(width, height));
    const std::uint64_t raw =
        (std::uint64_t(width) * scale * 3 + 1) * std::uint64_t(height) * scale;
    return raw + raw / 64 + 4096; // stored deflate blocks at worst, plus the chunks
}

bool images_available() {
    return STENCIL_HAVE_STB != 0;
}

float clip_at_percentile(const std::vector<float>& values, double percentile) {
    std::vector<float> magnitudes;
    magnitudes.reserve(values.size());
    for (float v : values)
        if (std::isfinite(v)) magnitudes.push_back(std::fabs(v));
    if (magnitudes.empty()) return 1.0f;
    const std::size_t at =
        std::min(magnitudes.size() - 1, std::size_t(percentile / 100.0 * magnitudes.size()));
    std::nth_element(magnitudes.begin(), magnitudes.begin() + at, magnitudes.end());
    return magnitudes[at] > 0 ? magnitudes[at] : 1.0f;
}

std::string write_seismic_png(const std::string& path, const Image& image, float clip) {
#if STENCIL_HAVE_STB
    const int scale = upscale(image.width, image.height);
    const int w = image.width * scale, h = image.height * scale;
    std::vector<unsigned char> pixels(std::size_t(w) * h * 3);
    auto put = [&](int x, int y, Rgb c) {
        if (x < 0 || y < 0 || x >= w || y >= h) return;
        unsigned char* p = &pixels[(std::size_t(y) * w + x) * 3];
        p[0] = c.r, p[1] = c.g, p[2] = c.b;
    };
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            put(x, y,
                seismic(image.values[std::size_t(y / scale) * image.width + x / scale] / clip));
    const Rgb outline{40, 40, 40}, marker{0, 0, 0};
    for (const Image::Outline& o : image.outlines) {
        const int x0 = o.x0 * scale, x1 = o.x1 * scale, y0 = o.y0 * scale, y1 = o.y1 * scale;
        for (int x = x0; x <= x1; ++x)
            if ((x / 4) % 2 == 0) put(x, y0, outline), put(x, y1, outline);
        for (int y = y0; y <= y1; ++y)
            if ((y / 4) % 2 == 0) put(x0, y, outline), put(x1, y, outline);
    }
    for (const Image::Marker& m : image.markers) {
        const int cx = m.x * scale + scale / 2, cy = m.y * scale + scale / 2,
                  arm = std::max(4, 2 * scale);
        for (int d = -arm; d <= arm; ++d)
            for (int t = -1; t <= 1; ++t)
                put(cx + d, cy + t, marker), put(cx + t, cy + d, marker);
    }
    // Encoded in memory: stbi_write_png would not report a failed fwrite.
    std::string png;
    if (!stbi_write_png_to_func(append_to_string, &png, w, h, 3, pixels.data(), w * 3))
        return "writing " + path + ": the PNG encoder failed";
    return write_file_completely(path, png);
#else
    (void)image, (void)clip;
    return "cannot write '" + path +
           "': this build has no image writer (install libstb-dev and reconfigure)";
#endif
}

} // namespace stencil
