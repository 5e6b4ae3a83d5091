// cryptaccel — umbrella header.
#pragma once
#include "cryptaccel/aes.hpp"
#include "cryptaccel/batch.hpp"
#include "cryptaccel/cipher.hpp"
#include "cryptaccel/engine.hpp"
#include "cryptaccel/error.hpp"
#include "cryptaccel/hash.hpp"
#include "cryptaccel/modes.hpp"
#include "cryptaccel/shacrypt.hpp"
#include "cryptaccel/sm4.hpp"
#include "cryptaccel/stream.hpp"
#include "cryptaccel/types.hpp"
#include "cryptaccel/version.hpp"
