/* OpenSSL libcrypto row of seed 002's RSA table: raw RSA (RSA_NO_PADDING) through EVP_PKEY_encrypt (b^e mod n) and
 * EVP_PKEY_decrypt (CRT with blinding and OpenSSL's own result check), one block per call on one thread.
 *
 * Usage: rsa_openssl KEY.pem SECONDS BLOCK_HEX...   (each block exactly the modulus size, < n)
 * Prints one JSON object: seconds per block for encrypt and decrypt. Built by bench/rsa_seed002.py:
 * cc -O2 rsa_openssl.c -lcrypto.
 */
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int unhex(const char *s, unsigned char *out, size_t len) {
  if (strlen(s) != 2 * len) return 0;
  for (size_t i = 0; i < len; ++i) {
    unsigned v;
    if (sscanf(s + 2 * i, "%2x", &v) != 1) return 0;
    out[i] = (unsigned char)v;
  }
  return 1;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s KEY.pem SECONDS BLOCK...\n", argv[0]);
    return 2;
  }
  FILE *f = fopen(argv[1], "r");
  EVP_PKEY *pkey = f ? PEM_read_PrivateKey(f, NULL, NULL, NULL) : NULL;
  if (f) fclose(f);
  if (!pkey) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 1;
  }
  const size_t size = (size_t)EVP_PKEY_get_size(pkey);
  const double seconds = atof(argv[2]);
  const int count = argc - 3;
  unsigned char *blocks = malloc(size * count), *cts = malloc(size * count), *pts = malloc(size * count);
  for (int i = 0; i < count; ++i) {
    if (!unhex(argv[3 + i], blocks + size * i, size)) {
      fprintf(stderr, "block %d is not %zu bytes of hex\n", i, size);
      return 1;
    }
  }
  EVP_PKEY_CTX *enc = EVP_PKEY_CTX_new(pkey, NULL), *dec = EVP_PKEY_CTX_new(pkey, NULL);
  if (EVP_PKEY_encrypt_init(enc) != 1 || EVP_PKEY_CTX_set_rsa_padding(enc, RSA_NO_PADDING) != 1 ||
      EVP_PKEY_decrypt_init(dec) != 1 || EVP_PKEY_CTX_set_rsa_padding(dec, RSA_NO_PADDING) != 1) {
    fprintf(stderr, "EVP set-up failed\n");
    return 1;
  }
  double result[2];
  for (int which = 0; which < 2; ++which) {
    long done = 0;
    const double start = now();
    double elapsed;
    do {
      for (int i = 0; i < count; ++i) {
        size_t len = size;
        const int rc = which == 0 ? EVP_PKEY_encrypt(enc, cts + size * i, &len, blocks + size * i, size)
                                  : EVP_PKEY_decrypt(dec, pts + size * i, &len, cts + size * i, size);
        if (rc != 1 || len != size) {
          fprintf(stderr, "EVP_PKEY_%s failed\n", which == 0 ? "encrypt" : "decrypt");
          return 1;
        }
      }
      done += count;
      elapsed = now() - start;
    } while (elapsed < seconds);
    result[which] = elapsed / (double)done;
  }
  if (memcmp(pts, blocks, size * count) != 0) {
    fprintf(stderr, "decryption does not invert encryption\n");
    return 1;
  }
  printf("{\"library\": \"%s\", \"blocks\": %d, \"encrypt_s\": %.9g, \"decrypt_crt_s\": %.9g}\n",
         OpenSSL_version(OPENSSL_VERSION), count, result[0], result[1]);
  return 0;
}
