/* GMP baseline of seed 002's RSA table: the seed's "opt" software used GMP's mpz_powm for b^e mod n.
 *
 * Usage: rsa_gmp N_HEX E_HEX D_HEX P_HEX Q_HEX SECONDS BLOCKS_HEX...
 * Times, per block, over the given blocks (each < n), for about SECONDS each:
 *   encrypt          mpz_powm(b, e, n)
 *   decrypt          mpz_powm(c, d, n)              (non-CRT, as the seed)
 *   decrypt_sec      mpz_powm_sec(c, d, n)          (GMP's side-channel-silent variant)
 *   decrypt_crt      mpz_powm mod p and mod q, Garner recombination
 * and checks every decryption against the encryption it inverts. Prints one JSON object.
 * Built by bench/rsa_seed002.py: cc -O2 rsa_gmp.c -lgmp (no -march=native: the distribution's libgmp picks its own
 * CPU paths at run time).
 */
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

enum op { ENCRYPT, DECRYPT, DECRYPT_SEC, DECRYPT_CRT };

struct key {
  mpz_t n, e, d, p, q, dp, dq, qinv;
};

static void apply(enum op op, mpz_t out, const mpz_t in, struct key *k, mpz_t t1, mpz_t t2) {
  switch (op) {
    case ENCRYPT: mpz_powm(out, in, k->e, k->n); break;
    case DECRYPT: mpz_powm(out, in, k->d, k->n); break;
    case DECRYPT_SEC: mpz_powm_sec(out, in, k->d, k->n); break;
    case DECRYPT_CRT:
      mpz_powm(t1, in, k->dp, k->p);          /* m1 = c^dp mod p */
      mpz_powm(t2, in, k->dq, k->q);          /* m2 = c^dq mod q */
      mpz_sub(out, t1, t2);                   /* h = qinv (m1 - m2) mod p */
      mpz_mul(out, out, k->qinv);
      mpz_mod(out, out, k->p);
      mpz_mul(out, out, k->q);                /* m = m2 + h q */
      mpz_add(out, out, t2);
      break;
  }
}

/* Seconds per block: whole passes over the blocks until `seconds` have passed. */
static double time_op(enum op op, mpz_t *blocks, mpz_t *outs, int count, struct key *k, double seconds) {
  mpz_t t1, t2;
  mpz_inits(t1, t2, NULL);
  long done = 0;
  const double start = now();
  double elapsed = 0;
  do {
    for (int i = 0; i < count; ++i) apply(op, outs[i], blocks[i], k, t1, t2);
    done += count;
    elapsed = now() - start;
  } while (elapsed < seconds);
  mpz_clears(t1, t2, NULL);
  return elapsed / (double)done;
}

int main(int argc, char **argv) {
  if (argc < 8) {
    fprintf(stderr, "usage: %s N E D P Q SECONDS BLOCK...\n", argv[0]);
    return 2;
  }
  struct key k;
  mpz_inits(k.n, k.e, k.d, k.p, k.q, k.dp, k.dq, k.qinv, NULL);
  mpz_set_str(k.n, argv[1], 16);
  mpz_set_str(k.e, argv[2], 16);
  mpz_set_str(k.d, argv[3], 16);
  mpz_set_str(k.p, argv[4], 16);
  mpz_set_str(k.q, argv[5], 16);
  mpz_t pm1, qm1;
  mpz_inits(pm1, qm1, NULL);
  mpz_sub_ui(pm1, k.p, 1);
  mpz_sub_ui(qm1, k.q, 1);
  mpz_mod(k.dp, k.d, pm1);
  mpz_mod(k.dq, k.d, qm1);
  if (mpz_invert(k.qinv, k.q, k.p) == 0) {
    fprintf(stderr, "q is not invertible mod p\n");
    return 1;
  }
  const double seconds = atof(argv[6]);
  const int count = argc - 7;
  mpz_t *blocks = malloc(sizeof(mpz_t) * count), *cts = malloc(sizeof(mpz_t) * count),
        *outs = malloc(sizeof(mpz_t) * count);
  for (int i = 0; i < count; ++i) {
    mpz_inits(blocks[i], cts[i], outs[i], NULL);
    mpz_set_str(blocks[i], argv[7 + i], 16);
  }
  const double enc = time_op(ENCRYPT, blocks, cts, count, &k, seconds);
  const enum op decs[] = {DECRYPT, DECRYPT_SEC, DECRYPT_CRT};
  double dec[3];
  for (int j = 0; j < 3; ++j) {
    dec[j] = time_op(decs[j], cts, outs, count, &k, seconds);
    for (int i = 0; i < count; ++i) {
      if (mpz_cmp(outs[i], blocks[i]) != 0) {
        fprintf(stderr, "decryption %d of block %d does not invert the encryption\n", j, i);
        return 1;
      }
    }
  }
  printf("{\"library\": \"GMP %s\", \"blocks\": %d, \"encrypt_s\": %.9g, \"decrypt_s\": %.9g, "
         "\"decrypt_sec_s\": %.9g, \"decrypt_crt_s\": %.9g}\n",
         gmp_version, count, enc, dec[0], dec[1], dec[2]);
  return 0;
}
