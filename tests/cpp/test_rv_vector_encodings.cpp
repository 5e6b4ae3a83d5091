// The simulator's vector encodings (src/rv/isa/encodings.def: RVV 1.0, Zvbb, Zvbc, Zvkg, Zvkned, Zvknh, Zvksed,
// Zvksh) against LLVM 19's assembler: every vector mnemonic the simulator knows is assembled by llvm-mc-19 and the
// word must decode back to the same mnemonic. (The crypto ones are also compared with the shared reference table in
// test_rv_encodings.cpp.) Skips when llvm-mc-19 was not found at configure time.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "rv/core.hpp"

namespace cryptaccel::test {
namespace {

#ifdef CRYPTACCEL_RV_LLVM_MC
constexpr const char* kLlvmMc = CRYPTACCEL_RV_LLVM_MC;
#else
constexpr const char* kLlvmMc = nullptr;
#endif

constexpr const char* kIsa = "rv64imcv_zvbb_zvbc_zvkg_zvkned_zvknhb_zvksed_zvksh";

/// One line per vector instruction: vd = v8, vs2 = v16, vs1 = v24 (distinct, so no overlap rule rejects them).
const std::vector<std::string> kAsm = {
    "vsetvli x0, x0, e8, m1, tu, mu",
    "vsetivli x0, 0, e8, m1, tu, mu",
    "vsetvl x0, x0, x0",
    "vle8.v v8, (x0)",
    "vle16.v v8, (x0)",
    "vle32.v v8, (x0)",
    "vle64.v v8, (x0)",
    "vse8.v v8, (x0)",
    "vse16.v v8, (x0)",
    "vse32.v v8, (x0)",
    "vse64.v v8, (x0)",
    "vlse8.v v8, (x0), x0",
    "vlse16.v v8, (x0), x0",
    "vlse32.v v8, (x0), x0",
    "vlse64.v v8, (x0), x0",
    "vsse8.v v8, (x0), x0",
    "vsse16.v v8, (x0), x0",
    "vsse32.v v8, (x0), x0",
    "vsse64.v v8, (x0), x0",
    "vl1re8.v v8, (x0)",
    "vl1re16.v v8, (x0)",
    "vl1re32.v v8, (x0)",
    "vl1re64.v v8, (x0)",
    "vl2re8.v v8, (x0)",
    "vl2re16.v v8, (x0)",
    "vl2re32.v v8, (x0)",
    "vl2re64.v v8, (x0)",
    "vl4re8.v v8, (x0)",
    "vl4re16.v v8, (x0)",
    "vl4re32.v v8, (x0)",
    "vl4re64.v v8, (x0)",
    "vl8re8.v v8, (x0)",
    "vl8re16.v v8, (x0)",
    "vl8re32.v v8, (x0)",
    "vl8re64.v v8, (x0)",
    "vs1r.v v8, (x0)",
    "vs2r.v v8, (x0)",
    "vs4r.v v8, (x0)",
    "vs8r.v v8, (x0)",
    "vlm.v v8, (x0)",
    "vsm.v v8, (x0)",
    "vadd.vv v8, v16, v24",
    "vadd.vv v8, v16, v24",
    "vadd.vx v8, v16, x0",
    "vadd.vi v8, v16, 1",
    "vsub.vv v8, v16, v24",
    "vsub.vx v8, v16, x0",
    "vrsub.vx v8, v16, x0",
    "vrsub.vi v8, v16, 1",
    "vminu.vv v8, v16, v24",
    "vminu.vx v8, v16, x0",
    "vmin.vv v8, v16, v24",
    "vmin.vx v8, v16, x0",
    "vmaxu.vv v8, v16, v24",
    "vmaxu.vx v8, v16, x0",
    "vmax.vv v8, v16, v24",
    "vmax.vx v8, v16, x0",
    "vand.vv v8, v16, v24",
    "vand.vx v8, v16, x0",
    "vand.vi v8, v16, 1",
    "vor.vv v8, v16, v24",
    "vor.vx v8, v16, x0",
    "vor.vi v8, v16, 1",
    "vxor.vv v8, v16, v24",
    "vxor.vx v8, v16, x0",
    "vxor.vi v8, v16, 1",
    "vmseq.vv v8, v16, v24",
    "vmseq.vx v8, v16, x0",
    "vmseq.vi v8, v16, 1",
    "vmsne.vv v8, v16, v24",
    "vmsne.vx v8, v16, x0",
    "vmsne.vi v8, v16, 1",
    "vmsltu.vv v8, v16, v24",
    "vmsltu.vx v8, v16, x0",
    "vmslt.vv v8, v16, v24",
    "vmslt.vx v8, v16, x0",
    "vmsleu.vv v8, v16, v24",
    "vmsleu.vx v8, v16, x0",
    "vmsleu.vi v8, v16, 1",
    "vmsle.vv v8, v16, v24",
    "vmsle.vx v8, v16, x0",
    "vmsle.vi v8, v16, 1",
    "vmsgtu.vx v8, v16, x0",
    "vmsgtu.vi v8, v16, 1",
    "vmsgt.vx v8, v16, x0",
    "vmsgt.vi v8, v16, 1",
    "vsll.vv v8, v16, v24",
    "vsll.vx v8, v16, x0",
    "vsll.vi v8, v16, 1",
    "vsrl.vv v8, v16, v24",
    "vsrl.vx v8, v16, x0",
    "vsrl.vi v8, v16, 1",
    "vsra.vv v8, v16, v24",
    "vsra.vx v8, v16, x0",
    "vsra.vi v8, v16, 1",
    "vmerge.vvm v8, v16, v24, v0",
    "vmerge.vxm v8, v16, x0, v0",
    "vmerge.vim v8, v16, 0, v0",
    "vmv.v.v v8, v16",
    "vmv.v.x v8, x0",
    "vmv.v.i v8, 0",
    "vmul.vv v8, v16, v24",
    "vmul.vx v8, v16, x0",
    "vmulhu.vv v8, v16, v24",
    "vmulhu.vx v8, v16, x0",
    "vzext.vf8 v8, v16",
    "vsext.vf8 v8, v16",
    "vzext.vf4 v8, v16",
    "vsext.vf4 v8, v16",
    "vzext.vf2 v8, v16",
    "vsext.vf2 v8, v16",
    "vmandn.mm v8, v16, v24",
    "vmand.mm v8, v16, v24",
    "vmor.mm v8, v16, v24",
    "vmxor.mm v8, v16, v24",
    "vmorn.mm v8, v16, v24",
    "vmnand.mm v8, v16, v24",
    "vmnor.mm v8, v16, v24",
    "vmxnor.mm v8, v16, v24",
    "vid.v v8",
    "viota.m v8, v16",
    "vcpop.m x0, v16",
    "vfirst.m x0, v16",
    "vmv.x.s x0, v16",
    "vmv.s.x v8, x0",
    "vmv1r.v v8, v16",
    "vmv2r.v v8, v16",
    "vmv4r.v v8, v16",
    "vmv8r.v v8, v16",
    "vslideup.vx v8, v16, x0",
    "vslideup.vi v8, v16, 1",
    "vslidedown.vx v8, v16, x0",
    "vslidedown.vi v8, v16, 1",
    "vslide1up.vx v8, v16, x0",
    "vslide1down.vx v8, v16, x0",
    "vrgather.vv v8, v16, v24",
    "vrgather.vx v8, v16, x0",
    "vrgather.vi v8, v16, 1",
    "vrgatherei16.vv v8, v16, v24",
    "vandn.vv v8, v16, v24",
    "vandn.vx v8, v16, x0",
    "vbrev8.v v8, v16",
    "vrev8.v v8, v16",
    "vbrev.v v8, v16",
    "vclz.v v8, v16",
    "vctz.v v8, v16",
    "vcpop.v v8, v16",
    "vrol.vv v8, v16, v24",
    "vrol.vx v8, v16, x0",
    "vror.vv v8, v16, v24",
    "vror.vx v8, v16, x0",
    "vror.vi v8, v16, 1",
    "vwsll.vv v8, v16, v24",
    "vwsll.vx v8, v16, x0",
    "vwsll.vi v8, v16, 1",
    "vclmul.vv v8, v16, v24",
    "vclmul.vx v8, v16, x0",
    "vclmulh.vv v8, v16, v24",
    "vclmulh.vx v8, v16, x0",
    "vghsh.vv v8, v16, v24",
    "vgmul.vv v8, v16",
    "vaesdm.vv v8, v16",
    "vaesdm.vs v8, v16",
    "vaesdf.vv v8, v16",
    "vaesdf.vs v8, v16",
    "vaesem.vv v8, v16",
    "vaesem.vs v8, v16",
    "vaesef.vv v8, v16",
    "vaesef.vs v8, v16",
    "vaesz.vs v8, v16",
    "vaeskf1.vi v8, v16, 1",
    "vaeskf2.vi v8, v16, 1",
    "vsha2ms.vv v8, v16, v24",
    "vsha2ch.vv v8, v16, v24",
    "vsha2cl.vv v8, v16, v24",
    "vsm4k.vi v8, v16, 1",
    "vsm4r.vv v8, v16",
    "vsm4r.vs v8, v16",
    "vsm3me.vv v8, v16, v24",
    "vsm3c.vi v8, v16, 1",
};

std::string mnemonic_of(const std::string& line) { return line.substr(0, line.find(' ')); }

TEST(RvVectorEncodings, EveryVectorEntryIsListed) {
  std::set<std::string> listed;
  for (const auto& l : kAsm) listed.insert(mnemonic_of(l));
  for (std::size_t op = 0; op < static_cast<std::size_t>(rv::Op::decode_stub); ++op) {
    const rv::InsnClass c = rv::kOpInfo[op].cls;
    // The custom xkeccak instructions are unknown to LLVM: test_rv_xkeccak.cpp checks them against keccak_insn.h.
    if (c < rv::InsnClass::vector_config || c == rv::InsnClass::vector_keccak) continue;
    EXPECT_TRUE(listed.count(rv::kOpInfo[op].mnemonic)) << rv::kOpInfo[op].mnemonic << " is not checked against LLVM";
  }
}

TEST(RvVectorEncodings, LlvmAssemblesWhatWeDecode) {
  if (!kLlvmMc) GTEST_SKIP() << "llvm-mc-19 was not found at configure time";
  char dir_template[] = "/tmp/cryptaccel_rvv_enc_XXXXXX";
  const char* dir = mkdtemp(dir_template);
  ASSERT_NE(dir, nullptr);
  const std::string src = std::string(dir) + "/v.s", out = std::string(dir) + "/v.txt";
  {
    std::ofstream f(src);
    for (const auto& l : kAsm) f << l << "\n";
  }
  const std::string cmd = std::string("'") + kLlvmMc +
                          "' --triple=riscv64 -mattr=+v,+zvbb,+zvbc,+zvkg,+zvkned,+zvknhb,+zvksed,+zvksh --show-encoding '" +
                          src + "' > '" + out + "' 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::ifstream f(out);
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string text = ss.str();
  std::remove(src.c_str()), std::remove(out.c_str()), rmdir(dir);
  const std::regex enc(R"(encoding: \[0x([0-9a-f]{2}),0x([0-9a-f]{2}),0x([0-9a-f]{2}),0x([0-9a-f]{2})\])");
  std::vector<std::uint32_t> words;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), enc); it != std::sregex_iterator(); ++it) {
    std::uint32_t w = 0;
    for (int b = 0; b < 4; ++b) w |= static_cast<std::uint32_t>(std::stoul((*it)[b + 1].str(), nullptr, 16)) << (8 * b);
    words.push_back(w);
  }
  ASSERT_EQ(words.size(), kAsm.size()) << text.substr(0, 2000);
  for (std::size_t i = 0; i < words.size(); ++i)
    EXPECT_EQ(rv::decode_mnemonic(words[i], kIsa), mnemonic_of(kAsm[i]))
        << kAsm[i] << " assembles to 0x" << std::hex << words[i];
}

}  // namespace
}  // namespace cryptaccel::test
