// read_whole_file (include/cryptaccel/file.hpp): contents, and one-line errors for a missing file and a directory.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include "cryptaccel/file.hpp"

namespace {

std::string error_of(const std::string& path) {
  try {
    cryptaccel::read_whole_file(path);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST(ReadWholeFile, ContentsAndErrors) {
  const auto dir = std::filesystem::temp_directory_path() / ("cryptaccel-file-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path = dir / "data.bin";
  std::string content(200000, '\0');
  for (std::size_t i = 0; i < content.size(); ++i) content[i] = static_cast<char>(i * 7 + i / 251);
  std::ofstream(path, std::ios::binary) << content;
  const cryptaccel::bytes got = cryptaccel::read_whole_file(path.string());
  EXPECT_EQ(std::string(got.begin(), got.end()), content);
  std::ofstream(dir / "empty");
  EXPECT_TRUE(cryptaccel::read_whole_file((dir / "empty").string()).empty());
  EXPECT_EQ(error_of((dir / "missing").string()), "cannot open '" + (dir / "missing").string() + "': No such file or directory");
  EXPECT_EQ(error_of(dir.string()), "cannot read '" + dir.string() + "': Is a directory");
  std::filesystem::remove_all(dir);
}
