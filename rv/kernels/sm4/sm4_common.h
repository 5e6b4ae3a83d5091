/* SM4 (GB/T 32907-2016) constants and byte helpers shared by the sm4 kernel's variants. Each variant header defines
 *   void sm4_expand(const uint8_t* key, uint8_t* ks_enc, uint8_t* ks_dec);   128 bytes each: rk[0..31], reversed
 *   void sm4_block(const uint8_t* ks, const uint8_t* in, uint8_t* out);      one block with the schedule given
 * and optionally SM4_HAVE_ECB_MANY: void sm4_ecb_many(const uint8_t* ks, uint8_t* data, uint32_t n). */
#ifndef CA_RV_SM4_COMMON_H
#define CA_RV_SM4_COMMON_H

#include <stdint.h>

#include "../common/variant.h"

#define SM4_API static __attribute__((unused))
#define SM4_SCHEDULE_BYTES 128

static const uint32_t sm4_fk[4] = {0xA3B1BAC6u, 0x56AA3350u, 0x677D9197u, 0xB27022DCu};

static inline uint32_t sm4_load_be32(const uint8_t* p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static inline void sm4_store_be32(uint8_t* p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
}

#endif
