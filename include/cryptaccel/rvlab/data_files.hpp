// Where the ISA lab's data files are at run time: the kernels (manifest and ELFs), the experiment tables and the
// timing presets. Nothing is compiled in: an explicit path or environment variable first, then directories found
// relative to the running executable — <exe dir>/../share/cryptaccel/rv (an installed tree, written by
// `cmake --install`) and <exe dir>/../../rv (the build tree, where src/cli/cryptaccel lives two levels below the
// build root; CMake copies the experiments, presets and chart scripts there).
#pragma once
#include <string>
#include <vector>

namespace cryptaccel::rvlab {

/// Environment variable naming a data directory that holds kernels/, experiments/ and timing/ (checked before the
/// directories found relative to the executable).
inline constexpr const char* kDataDirEnv = "CRYPTACCEL_RV_DATA_DIR";

/// The candidate data directories in lookup order: $CRYPTACCEL_RV_DATA_DIR (when set), the installed tree's
/// share/cryptaccel/rv and the build tree's rv beside the executable. Directories that do not exist are left out.
std::vector<std::string> data_directories();

/// The first existing file `sub`/`name` (e.g. "experiments", "seed000.json") under data_directories(), or "" when
/// there is none.
std::string find_data_file(const std::string& sub, const std::string& name);

/// The directory of the running executable ("" when /proc/self/exe cannot be read).
std::string executable_directory();

}  // namespace cryptaccel::rvlab
