#!/usr/bin/env python3
"""Derives the affine maps that turn the AES S-box into the SM4 S-box (src/cpu/sm4_aesni.cpp).

Both S-boxes are "affine . inversion . affine" over GF(2^8), in two different representations of the field:
  SM4: S(x) = A*inv_p(A*x ^ C) ^ C   inversion modulo p = x^8+x^7+x^6+x^5+x^4+x^2+1 (0x1F5), A = circulant 0xA7 rows,
                                     C = 0xD3 (the form used by src/algo/sm4.hpp)
  AES: S_aes(z) = A_aes*inv_q(z) ^ 0x63   inversion modulo q = x^8+x^4+x^3+x+1 (0x11B)
A field isomorphism phi: GF(2)[x]/p -> GF(2)[x]/q is the GF(2)-linear map sending x^i to beta^i, for beta a root
of p in the AES field. Inversion commutes with it: inv_p(y) = phi^-1(inv_q(phi(y))). Hence
  S(x) = M2 * S_aes(M1*x ^ c1) ^ c2,   M1 = phi*A, c1 = phi(C), M2 = A*phi^-1*A_aes^-1, c2 = M2*0x63 ^ C.
An 8x8 affine map over bytes splits by nibbles: f(x) = LO[x & 15] ^ HI[x >> 4] with LO[n] = M*n ^ c, HI[n] = M*(n<<4),
two 16-byte tables that PSHUFB looks up in a register (constant time). The script checks the composition against the
SM4 S-box for all 256 inputs (and that S-box against the GB/T 32907 table row 0) and prints the four tables in the
order src/cpu/sm4_aesni.cpp declares them (bytes 0..15, i.e. _mm_setr_epi8 order).

Run: python3 scripts/derive_sm4_aesni_affine.py
"""


def gf_mul(a, b, poly):
    r = 0
    while b:
        if b & 1:
            r ^= a
        b >>= 1
        a <<= 1
        if a & 0x100:
            a ^= poly
    return r


def gf_inv(a, poly):
    if a == 0:
        return 0
    r = 1
    for _ in range(254):  # a^254
        r = gf_mul(r, a, poly)
    return r


# A linear map on bytes is a list of 8 column images: M*x = XOR of cols[i] for the bits i set in x.
def apply(cols, x):
    r = 0
    for i in range(8):
        if (x >> i) & 1:
            r ^= cols[i]
    return r


def compose(f, g):  # f * g
    return [apply(f, g[i]) for i in range(8)]


def inverse(cols):
    table = {apply(cols, x): x for x in range(256)}
    assert len(table) == 256, "map is not invertible"
    return [table[1 << i] for i in range(8)]


def rotl8(x, n):
    return ((x << n) | (x >> (8 - n))) & 0xFF


P_SM4, P_AES = 0x1F5, 0x11B

# SM4's A: out bit i = x_i ^ x_(i+1) ^ x_(i+2) ^ x_(i+5) ^ x_(i+7)  (src/algo/sm4.hpp, sm4_affine_planes)
A_SM4 = []
for j in range(8):  # image of bit j: every output bit i with j in {i, i+1, i+2, i+5, i+7} mod 8
    A_SM4.append(sum(1 << i for i in range(8) if (j - i) % 8 in (0, 1, 2, 5, 7)))
C_SM4 = 0xD3
# AES's affine map: b ^ rotl(b,1) ^ rotl(b,2) ^ rotl(b,3) ^ rotl(b,4), then ^ 0x63.
A_AES = [rotl8(1 << i, 0) ^ rotl8(1 << i, 1) ^ rotl8(1 << i, 2) ^ rotl8(1 << i, 3) ^ rotl8(1 << i, 4) for i in range(8)]

SM4_SBOX = [apply(A_SM4, gf_inv(apply(A_SM4, x) ^ C_SM4, P_SM4)) ^ C_SM4 for x in range(256)]
AES_SBOX = [apply(A_AES, gf_inv(x, P_AES)) ^ 0x63 for x in range(256)]
assert SM4_SBOX[:16] == [0xD6, 0x90, 0xE9, 0xFE, 0xCC, 0xE1, 0x3D, 0xB7, 0x16, 0xB6, 0x14, 0xC2, 0x28, 0xFB, 0x2C, 0x05]
assert SM4_SBOX[0xFF] == 0x48 and AES_SBOX[0] == 0x63 and AES_SBOX[0x53] == 0xED

# beta: the smallest root of p in the AES field (any of the 8 conjugate roots works).
def poly_at(poly, z):
    r, zi = 0, 1
    for i in range(9):
        if (poly >> i) & 1:
            r ^= zi
        zi = gf_mul(zi, z, P_AES)
    return r


beta = next(z for z in range(2, 256) if poly_at(P_SM4, z) == 0)
PHI, power = [], 1
for i in range(8):
    PHI.append(power)
    power = gf_mul(power, beta, P_AES)
PHI_INV = inverse(PHI)
for a in range(256):  # phi is a field isomorphism
    for b in (3, 0x53, 0xA7, a):
        assert apply(PHI, gf_mul(a, b, P_SM4)) == gf_mul(apply(PHI, a), apply(PHI, b), P_AES)

M1, c1 = compose(PHI, A_SM4), apply(PHI, C_SM4)
M2 = compose(A_SM4, compose(PHI_INV, inverse(A_AES)))
c2 = apply(M2, 0x63) ^ C_SM4


def nibble_tables(cols, c):
    return [apply(cols, n) ^ c for n in range(16)], [apply(cols, n << 4) for n in range(16)]


PRE_LO, PRE_HI = nibble_tables(M1, c1)
POST_LO, POST_HI = nibble_tables(M2, c2)
for x in range(256):
    y = PRE_LO[x & 15] ^ PRE_HI[x >> 4]
    s = AES_SBOX[y]
    assert POST_LO[s & 15] ^ POST_HI[s >> 4] == SM4_SBOX[x], hex(x)


def show(name, t):
    print(f"{name} = {{{', '.join(f'0x{v:02x}' for v in t)}}}")


print(f"beta = 0x{beta:02x} (root of 0x1F5 in GF(2^8)/0x11B); all 256 inputs verified")
show("pre_lo ", PRE_LO)
show("pre_hi ", PRE_HI)
show("post_lo", POST_LO)
show("post_hi", POST_HI)

# GFNI (src/cpu/sm4_gfni_avx512.cpp): GF2P8AFFINEQB(x, A, b) = A*x ^ b and GF2P8AFFINEINVQB(y, A, b) = A*inv_q(y) ^ b
# on every byte, so with y = phi(A_SM4*x ^ C) = M1*x ^ c1 and inv_p(v) = phi^-1(inv_q(phi(v))):
#   S(x) = (A_SM4*phi^-1) * inv_q(M1*x ^ c1) ^ C.
# An instruction matrix is one qword whose byte 7 - i holds row i (the input bits that output bit i sums).
def gfni_qword(cols):
    q = 0
    for i in range(8):
        row = sum(1 << j for j in range(8) if (cols[j] >> i) & 1)
        q |= row << (8 * (7 - i))
    return q


def gfni_affine(q, x, b):  # the instruction's definition, byte by byte
    r = 0
    for i in range(8):
        row = (q >> (8 * (7 - i))) & 0xFF
        r |= (bin(row & x).count("1") & 1) << i
    return r ^ b


M3 = compose(A_SM4, PHI_INV)
GFNI_PRE, GFNI_POST = gfni_qword(M1), gfni_qword(M3)
for x in range(256):
    y = gfni_affine(GFNI_PRE, x, c1)
    assert gfni_affine(GFNI_POST, gf_inv(y, P_AES), C_SM4) == SM4_SBOX[x], hex(x)
print(f"gfni: pre 0x{GFNI_PRE:016x} ^ 0x{c1:02x}, post (after inversion) 0x{GFNI_POST:016x} ^ 0x{C_SM4:02x};"
      " all 256 inputs verified")
