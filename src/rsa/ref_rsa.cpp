// The `ref` engine's RSA: the portable CIOS / square-and-REDC kernels of src/algo/montgomery.hpp.
#include "rsa/host_ops.hpp"

namespace cryptaccel::rsa {

void ref_rsa_private(std::span<const engine::RsaPrivateJob> jobs) { host_rsa_private<bn::PortableMont>(jobs); }
void ref_rsa_public(std::span<const engine::RsaPublicJob> jobs) { host_rsa_public<bn::PortableMont>(jobs); }
void ref_modexp(const Modulus& mod, bytes_view exponent, std::span<const engine::ModexpJob> jobs) {
  host_modexp<bn::PortableMont>(mod, exponent, jobs);
}

}  // namespace cryptaccel::rsa
