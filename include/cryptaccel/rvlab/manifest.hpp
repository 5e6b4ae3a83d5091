// The RISC-V kernels' manifest (rv/kernels/README.md): where it is, and what it says.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cryptaccel::rvlab {

/// One named workload of a kernel in kernels.json ("seed000": {"blocks": 512, ...}): its integer sizes, in file order
/// (notes and other non-integer keys are left out).
struct NamedWorkload {
  std::string name;                                           ///< "seed000", "riscv-crypto", ...
  std::vector<std::pair<std::string, std::uint64_t>> sizes;   ///< {"blocks", 512}, {"length", 2048}, ...

  /// The size named `key`, if the workload has one.
  std::optional<std::uint64_t> size(const std::string& key) const;
};

/// One kernel of the manifest's `kernels` list: what it computes and its I/O layout.
struct KernelSpec {
  std::string kernel;                 ///< "aes256", "aes256-keyexp-dec", "sha256", ...
  std::string algorithm;              ///< "AES-256", "SHA-256", ...
  std::string layout;                 ///< "aes-cipher", "aes-keyexp", "hash" (a key of the manifest's `layouts`)
  std::size_t key_bytes = 0;          ///< aes-* layouts
  std::size_t rounds = 0;             ///< aes-* layouts
  std::size_t digest_bytes = 0;       ///< hash layout
  std::vector<std::string> defines;   ///< compile-time defines (KERNEL_AES_KEYEXP_DEC tells the decryption schedule)
  std::vector<std::string> variants;  ///< variants built for it
  std::vector<NamedWorkload> workloads;  ///< its named workloads, in file order

  /// True for the kernel that outputs the equivalent inverse cipher's schedule.
  bool decryption_schedule() const;
  /// The workload named `name`, or nullptr.
  const NamedWorkload* workload(const std::string& name) const;
};

/// One built ELF (the manifest's `entries`): a runnable kernel x variant x XLEN.
struct ManifestEntry {
  std::string kernel;                   ///< a KernelSpec::kernel
  std::string variant;                  ///< "software-naive", "native", "zvk", "xkeccak64-lmul8", ...
  unsigned xlen = 0;                    ///< 32 or 64
  std::string isa;                      ///< ISA string to run it with (Spike's --isa, rv::MachineConfig::isa)
  std::vector<std::string> extensions;  ///< the variant's extensions beyond rv<xlen>imc
  std::string elf;  ///< Spike-map ELF: as listed (a relative name is beside the manifest; a listed path that is gone
                    ///< is looked up beside the manifest too)
  bool built = false;                   ///< the ELF exists
  std::vector<unsigned> vlens;          ///< vector variants: the VLENs it is listed for (the ELF runs at any); else empty
  unsigned default_vlen = 0;            ///< vector variants: the VLEN `rv run` uses without --vlen; 0 for scalar ones

  /// True for kernels that use the vector extension (they take a VLEN).
  bool vector() const { return default_vlen != 0; }
  /// Spike's --isa for a run at `vlen` (the ISA string, plus _zvl<vlen>b for vector kernels).
  std::string spike_isa(unsigned vlen) const;
};

/// The whole manifest.
struct Manifest {
  std::string path;      ///< the file it was read from
  std::string compiler;  ///< clang that built the kernels
  std::vector<KernelSpec> kernels;       ///< what each kernel computes
  std::vector<ManifestEntry> entries;    ///< the ELFs built (or listed) for them

  /// The kernel named `name`, or nullptr.
  const KernelSpec* kernel(const std::string& name) const;
  /// The entry for kernel x variant x xlen; throws std::runtime_error naming what exists when there is none.
  const ManifestEntry& entry(const std::string& kernel, const std::string& variant, unsigned xlen) const;
  /// The entry for kernel x variant x xlen, or nullptr.
  const ManifestEntry* find(const std::string& kernel, const std::string& variant, unsigned xlen) const;
};

/// Finds the manifest: `option` (--manifest) if given, else $CRYPTACCEL_RV_MANIFEST, else kernels/manifest.json in
/// the data directories (data_files.hpp: installed tree, then build tree). Throws std::runtime_error with a one-line
/// reason (the kernels were not built: clang-19 / ld.lld-19 missing) when none exists.
std::string locate_manifest(const std::string& option);

/// Reads and checks a manifest; throws std::runtime_error with the file name and the reason on a malformed one.
Manifest load_manifest(const std::string& path);

}  // namespace cryptaccel::rvlab
