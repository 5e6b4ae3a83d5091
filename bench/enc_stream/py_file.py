"""One file encryption from Python, for bench/enc_stream/run.sh: `cryptaccel.encrypt_file` against the `cryptography`
package's streaming encryptor (1 MiB reads, the usual way to encrypt a file with it), whole process, output fsynced
by both.
    python3 py_file.py {cryptaccel|cryptography} {aes-128-ctr|aes-256-gcm} SRC DST
"""
import os
import sys

tool, cipher, src, dst = sys.argv[1:5]
key = bytes(range(32))[: 16 if cipher == "aes-128-ctr" else 32]
iv = bytes(16) if cipher == "aes-128-ctr" else bytes(12)
if tool == "cryptaccel":
    import cryptaccel

    cryptaccel.encrypt_file(cipher, key, src, dst, iv, engine="cpu")
else:
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

    mode = modes.CTR(iv) if cipher == "aes-128-ctr" else modes.GCM(iv)
    enc = Cipher(algorithms.AES(key), mode).encryptor()
    with open(src, "rb") as r, open(dst, "wb") as w:
        while chunk := r.read(1 << 20):
            w.write(enc.update(chunk))
        w.write(enc.finalize())
        if cipher == "aes-256-gcm":
            w.write(enc.tag)
        w.flush()
        if dst != os.devnull:
            os.fsync(w.fileno())
