// OpenSSL BIGNUM ownership for the tests that check cryptaccel's multi-precision arithmetic against BN_* (the
// independent oracle): BIGNUM and BN_CTX in unique_ptrs.
#pragma once
#include <openssl/bn.h>

#include <memory>

namespace cryptaccel::test {

/// Frees a BIGNUM.
struct BnDel {
  void operator()(BIGNUM* b) const { BN_free(b); }
};
/// An owned BIGNUM.
using Bn = std::unique_ptr<BIGNUM, BnDel>;
/// Frees a BN_CTX.
struct CtxDel {
  void operator()(BN_CTX* c) const { BN_CTX_free(c); }
};
/// An owned BN_CTX.
using Ctx = std::unique_ptr<BN_CTX, CtxDel>;

}  // namespace cryptaccel::test
