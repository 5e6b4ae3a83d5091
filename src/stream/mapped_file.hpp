// A regular input file mapped read-only for CipherStream::pipe_fd: the engine reads the page cache directly, without
// the copy that read() makes (on the 2-core Xeon, reading 1 GiB from the page cache costs 0.17 s through read() and
// 0.07 s through a mapping). Two things a mapping needs that read() does not:
//   - a file that shrinks while mapped raises SIGBUS on the pages past its new end: while a MappedFile lives, a SIGBUS
//     handler maps zero pages over the rest of the mapping instead (any other SIGBUS goes to the handler that was
//     there before), the run goes on, and shrunk() tells the caller, who fails the stream before publishing it;
//   - mapped pages count in the process's resident set: release_before() drops those already processed, so peak
//     memory stays bounded by the pipeline, not the file.
#pragma once
#include <cstdint>
#include <memory>

#include "cryptaccel/types.hpp"

namespace cryptaccel {

class MappedFile {
 public:
  /// Maps `fd` from its current offset to its end, when it is a regular file with at least `min_bytes` left there
  /// and no other MappedFile is alive; else returns nullptr (read it instead). The file offset moves to the end, as
  /// if the rest had been read.
  static std::unique_ptr<MappedFile> try_map(int fd, std::uint64_t min_bytes);
  ~MappedFile();  // unmaps, and puts the previous SIGBUS action back
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  /// The mapped bytes.
  bytes_view data() const;
  /// Drops the mapping's pages wholly before `offset` from the resident set (the page cache keeps them).
  void release_before(std::uint64_t offset) const;
  /// Whether the file shrank while mapped (pages past its new end were read as zeros).
  bool shrunk() const;

 private:
  MappedFile(int fd, std::uint8_t* map, std::size_t map_len, std::size_t skip, std::uint64_t file_size);
  int fd_;
  std::uint8_t* map_;        // page-aligned start of the mapping
  std::size_t map_len_;      // bytes mapped
  std::size_t skip_;         // bytes of the first page before the file offset we started at
  std::uint64_t file_size_;  // the file's size when it was mapped
};

}  // namespace cryptaccel
