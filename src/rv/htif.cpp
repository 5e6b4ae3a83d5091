// The HTIF device of Spike's bare-metal platform (docs/isa-lab.md, "Platform contract"): a store to `tohost`
// with bit 0 set exits with code value >> 1; device 0 / command 0 with an even payload is a system call whose
// uint64_t magic_mem[8] = {sysno, a0, a1, a2, ...} lies at the payload address (read 63, write 64, exit 93; the
// result goes to magic_mem[0], then fromhost = 1); device 1 command 1 writes one character to stdout.
// The device answers at once, so a program's `while (fromhost == 0)` loop exits on its first test.
#include <algorithm>

#include "rv/core.hpp"
#include "common/copy_bytes.hpp"

namespace cryptaccel::rv {

namespace {
constexpr std::int64_t kEbadf = 9, kEfault = 14, kEnosys = 38;
}

void Core::store_hook(std::uint64_t off, unsigned n) {
  const std::uint8_t flags = page_flags[off >> kPageShift] | page_flags[(off + n - 1) >> kPageShift];
  if (flags & kPageCode) invalidate_code(off, n);
  if ((flags & kPageHtif) && tohost) {
    const std::uint64_t t = tohost - ram_base;
    if (off < t + 8 && off + n > t) htif_tohost_written();
  }
}

void Core::htif_tohost_written() {
  const std::uint64_t t = tohost - ram_base;
  std::uint64_t v;
  std::memcpy(&v, ram + t, 8);
  if (v == 0) return;
  const std::uint64_t zero = 0;
  std::memcpy(ram + t, &zero, 8);  // the host consumed the command
  const unsigned dev = static_cast<unsigned>(v >> 56), cmd = static_cast<unsigned>((v >> 48) & 0xFF);
  const std::uint64_t payload = v & ((std::uint64_t{1} << 48) - 1);
  auto respond = [&](std::uint64_t value) {
    if (!fromhost) return;
    const std::uint64_t r = (std::uint64_t{dev} << 56) | (std::uint64_t{cmd} << 48) | value;
    std::memcpy(ram + (fromhost - ram_base), &r, 8);
  };
  if (dev == 1 && cmd == 1) {  // bcd console: putchar
    out.push_back(static_cast<char>(payload & 0xFF));
    console.push_back(static_cast<char>(payload & 0xFF));
    respond(0x100 | (payload & 0xFF));
    return;
  }
  if (dev != 0 || cmd != 0) return;  // unknown devices are ignored, as Spike's null device does
  if (payload & 1) {
    exit(static_cast<std::int64_t>(payload >> 1));
    return;
  }
  // System call.
  std::uint64_t m[8];
  const std::uint64_t moff = payload - ram_base;
  if (payload < ram_base || moff > ram_size - sizeof m) {
    message = "HTIF system call block at " + hex(payload) + " is outside RAM";
    stopped = true, budget = 0, reason = StopReason::memory_fault, stop_pc = pc;
    return;
  }
  std::memcpy(m, ram + moff, sizeof m);
  std::int64_t ret = -kEnosys;
  auto in_ram = [&](std::uint64_t addr, std::uint64_t len) {
    return addr >= ram_base && len <= ram_size && addr - ram_base <= ram_size - len;
  };
  switch (m[0]) {
    case 63: {  // read(fd, buf, len)
      if (m[1] != 0) { ret = -kEbadf; break; }
      const std::uint64_t len = std::min<std::uint64_t>(m[3], stdin_bytes.size() - stdin_pos);
      if (!in_ram(m[2], len)) { ret = -kEfault; break; }
      copy_bytes(ram + (m[2] - ram_base), stdin_bytes.data() + stdin_pos, len);
      invalidate_code(m[2] - ram_base, len);
      stdin_pos += len;
      ret = static_cast<std::int64_t>(len);
      break;
    }
    case 64: {  // write(fd, buf, len)
      if (m[1] != 1 && m[1] != 2) { ret = -kEbadf; break; }
      if (!in_ram(m[2], m[3])) { ret = -kEfault; break; }
      const char* data = reinterpret_cast<const char*>(ram + (m[2] - ram_base));
      (m[1] == 1 ? out : err).append(data, m[3]);
      console.append(data, m[3]);
      ret = static_cast<std::int64_t>(m[3]);
      break;
    }
    case 93:  // exit(code)
      exit(static_cast<std::int64_t>(m[1]));
      return;
    default: break;
  }
  m[0] = static_cast<std::uint64_t>(ret);
  std::memcpy(ram + moff, &m[0], 8);
  respond(1);
}

}  // namespace cryptaccel::rv
