// Password cracking, hashcat-style: hash files and /etc/shadow lines (crack/targets.hpp), hashcat rules
// (crack/rules.hpp), wordlists (crack/wordlist.hpp), the potfile (crack/potfile.hpp) and the dictionary attack that
// puts them together (crack/attack.hpp). `cryptaccel crack` is a thin command over this.
#pragma once
#include "cryptaccel/crack/attack.hpp"
#include "cryptaccel/crack/potfile.hpp"
#include "cryptaccel/crack/rules.hpp"
#include "cryptaccel/crack/targets.hpp"
#include "cryptaccel/crack/wordlist.hpp"
