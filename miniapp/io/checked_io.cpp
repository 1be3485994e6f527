#include "io/checked_io.hpp"

#include "mpi_util.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace stencil {

std::string partial_path(const std::string& path) {
    return path + ".partial";
}

int create_partial(const std::string& path) {
    return ::open(partial_path(path).c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                  0644);
}

std::string partial_problem(const std::string& path, int error) {
    if (error != EEXIST) return std::strerror(error);
    return partial_path(path) + " exists (another run writing " + path +
           ", or one that was interrupted): remove it if no run is writing there";
}

namespace {

// The bytes under partial_path(path) (create_partial), every write
// checked and flushed to the device (fsync), closed; "" or why, the
// partial file then removed.
std::string write_partial(const std::string& path, const void* data, std::size_t bytes) {
    const std::string temporary = partial_path(path);
    auto failed = [&](int error) {
        ::unlink(temporary.c_str());
        return "writing " + path + ": " + std::strerror(error);
    };
    const int fd = create_partial(path);
    if (fd < 0) return "writing " + path + ": " + partial_problem(path, errno);
    const char* p = static_cast<const char*>(data);
    for (std::size_t left = bytes; left > 0;) {
        const ssize_t n = ::write(fd, p, left);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) { // a zero-byte write on a regular file means no room either
            const int error = n < 0 ? errno : ENOSPC;
            ::close(fd);
            return failed(error);
        }
        p += n, left -= std::size_t(n);
    }
    // Network and parallel file systems may report a full disk or a lost
    // server only here, at fsync or close.
    if (::fsync(fd) != 0 && errno != EINVAL) { // EINVAL: a file that cannot be synced
        const int error = errno;
        ::close(fd);
        return failed(error);
    }
    if (::close(fd) != 0) return failed(errno);
    return {};
}

} // namespace

std::string write_file_completely(const std::string& path, const void* data, std::size_t bytes) {
    if (std::string why = write_partial(path, data, bytes); !why.empty()) return why;
    const std::string temporary = partial_path(path);
    if (::rename(temporary.c_str(), path.c_str()) != 0) {
        const int error = errno;
        ::unlink(temporary.c_str());
        return "writing " + path + ": " + std::strerror(error);
    }
    return {};
}

std::string write_new_file_completely(const std::string& path, const std::string& text) {
    if (std::string why = write_partial(path, text.data(), text.size()); !why.empty()) return why;
    const std::string temporary = partial_path(path);
    // link(2) names the complete file only where the name is free: unlike
    // rename(2), it never replaces a file that appeared during the run.
    int error = ::link(temporary.c_str(), path.c_str()) == 0 ? 0 : errno;
    // A file system without hard links: looked at (a link too), then renamed.
    struct stat there {};
    if (error != 0 && error != EEXIST)
        error = ::lstat(path.c_str(), &there) == 0               ? EEXIST
                : ::rename(temporary.c_str(), path.c_str()) == 0 ? 0
                                                                 : errno;
    ::unlink(temporary.c_str());
    if (error == EEXIST)
        return "writing " + path +
               ": a file of that name appeared during the run, and is not replaced (--output-force "
               "replaces one)";
    if (error != 0) return "writing " + path + ": " + std::strerror(error);
    return {};
}

std::string write_user_file(const std::string& path, const std::string& text, bool force) {
    return force ? write_file_completely(path, text) : write_new_file_completely(path, text);
}

std::string json_text(const Json& doc, int indent) {
    return doc.dump(indent, ' ', false, Json::error_handler_t::replace) + "\n";
}

std::string write_file_completely(const std::string& path, const std::string& text) {
    return write_file_completely(path, text.data(), text.size());
}

void agree_on_outcome(MPI_Comm comm, const std::string& problem) {
    const std::string agreed = first_problem(comm, problem);
    if (!agreed.empty()) throw OutputFailure(agreed);
}

std::string mpi_io_reason(int code) {
    int error_class = MPI_ERR_OTHER;
    MPI_Error_class(code, &error_class);
    if (error_class == MPI_ERR_NO_SPACE) return std::strerror(ENOSPC);
    if (error_class == MPI_ERR_QUOTA) return std::strerror(EDQUOT);
    if (error_class == MPI_ERR_ACCESS) return std::strerror(EACCES);
    if (error_class == MPI_ERR_READ_ONLY) return std::strerror(EROFS);
    return mpi_error_string(code);
}

} // namespace stencil
