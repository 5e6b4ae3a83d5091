// `cryptaccel crack --ray`: the attack on a Ray cluster. The Ray runner is the Python package's
// (cryptaccel._ray_crack, behind crack.run(cluster=...)); this runs it as a child process
// (`$CRYPTACCEL_PYTHON -m cryptaccel._ray_crack_pipe`, default python3) and turns its event lines back into the
// finds and status snapshots of a local attack, so that the potfile, -o and the status output stay the command's.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "crack_options.hpp"
#include "cryptaccel/crack/attack.hpp"

namespace cryptaccel::cli::crack {

/// The restore file of `o`'s session: --restore-file-path, else sessions/NAME.restore beside the default potfile.
std::string restore_file_path(const CrackOptions& o);

/// Runs `o`'s attack on the cluster `o.ray`, `known` (hash strings in the potfile) left out. `on_find` and
/// `on_progress` are called as Attack::run calls them; `should_stop` is asked several times a second, and once it
/// says yes the runner is told to stop (the end of its stdin). `last` receives the final status. Throws std::runtime_error with
/// the runner's message (no Python, no Ray, an unreachable cluster, ...).
AttackEnd run_cluster_attack(const CrackOptions& o, const std::vector<std::string>& known,
                             const Attack::FindHandler& on_find, const Attack::ProgressHandler& on_progress,
                             const std::function<bool()>& should_stop, StatusSnapshot& last);

}  // namespace cryptaccel::cli::crack
