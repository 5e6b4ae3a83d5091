/* AES parameters shared by the variant implementations (FIPS-197): AES_KEYBITS is 128 or 256 (set by the build). */
#ifndef CA_RV_AES_COMMON_H
#define CA_RV_AES_COMMON_H

#include <stdint.h>

#include "../common/variant.h"

#ifndef AES_KEYBITS
#error "define AES_KEYBITS (128 or 256)"
#endif
#if AES_KEYBITS == 128
#define AES_NK 4   /* key words */
#define AES_NR 10  /* rounds */
#elif AES_KEYBITS == 256
#define AES_NK 8
#define AES_NR 14
#else
#error "AES_KEYBITS must be 128 or 256"
#endif
#define AES_KEY_BYTES (4 * AES_NK)
/* The key schedule w[0 .. 4*(Nr+1)-1] as bytes in FIPS-197 order; the decryption schedule is the "dw" of the
 * equivalent inverse cipher (FIPS-197 5.3.5): w with InvMixColumns applied to the round keys 1 .. Nr-1. */
#define AES_SCHEDULE_BYTES (16 * (AES_NR + 1))

/* Round constants of the key expansion, Rcon[i] for i = 1 .. 10 (x^(i-1) in GF(2^8)). */
static const uint8_t aes_rcon[10] = {0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36};

/** Multiplication by x in GF(2^8) modulo x^8 + x^4 + x^3 + x + 1, without a branch. */
static inline uint8_t aes_xtime(uint8_t x) { return (uint8_t)((x << 1) ^ (0x1b & -(x >> 7))); }

/* The variant interface; a kernel uses only part of it (the key expansion kernels no block function). */
#define AES_API static __attribute__((unused))

/* Each variant header defines:
 *   void aes_init(void);                                      tables, outside the measured region
 *   void aes_expand_enc(const uint8_t* key, uint8_t* ks);     ks: AES_SCHEDULE_BYTES, 16-byte aligned
 *   void aes_expand_dec(const uint8_t* key, uint8_t* ks);     the equivalent-inverse-cipher schedule
 *   void aes_encrypt_block(const uint8_t* ks, const uint8_t* in, uint8_t* out);   16-byte aligned blocks
 *   void aes_decrypt_block(const uint8_t* dks, const uint8_t* in, uint8_t* out);  (in may equal out) */

#endif
