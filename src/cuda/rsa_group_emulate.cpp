// Host emulation of the group RSA kernel variant (rsa_kernel_variant.hpp, rsa_group_ops.hpp): each job's group of
// lanes runs as one LaneWord array per number, through the same rsa_modexp_group the kernels run.
#include <string>

#include "cryptaccel/error.hpp"
#include "cuda/rsa_group_ops.hpp"
#include "cuda/rsa_kernel_variant.hpp"

namespace cryptaccel::cuda {
namespace {

template <std::size_t N>
void emulate(const RsaModexpArgs& a, RsaExpKind kind) {
  for (std::uint64_t j = a.count; j-- > 0;) {  // reverse order, as the thread emulation: no job reads another's
    if (kind == RsaExpKind::secret)
      rsa_modexp_group<N, RsaExpKind::secret>(a, j);
    else
      rsa_modexp_group<N, RsaExpKind::public_e>(a, j);
  }
}

}  // namespace

bool rsa_group_supports(std::size_t words) { return rsa_group_lanes(words) != 0; }

void rsa_emulate_group(const RsaModexpArgs& a, std::size_t words, RsaExpKind kind) {
  switch (words) {
    case 16: return emulate<16>(a, kind);
    case 32: return emulate<32>(a, kind);
    case 48: return emulate<48>(a, kind);
    case 64: return emulate<64>(a, kind);
    default: break;
  }
  throw InvalidArgument("rsa: no group GPU kernel for " + std::to_string(32 * words) + "-bit operands");
}

}  // namespace cryptaccel::cuda
