// SPDX-License-Identifier: Apache-2.0
//
// Seeded constrained-random helpers and the seed convention: HTM_SEED from the environment, or a
// fresh random seed, always printed so that a failure can be reproduced.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "htm/golden/ports.h"

namespace htm::tb {

/// The seed of this run: $HTM_SEED if set (decimal or 0x hex), else a random one.
/// Throws std::invalid_argument if HTM_SEED is not a number.
uint64_t SeedFromEnv();

/// A deterministic random source with the small helpers stimulus generators need.
class Rng {
 public:
  explicit Rng(uint64_t seed) : gen_(seed) {}
  uint64_t Bits(int width) { return gen_() & golden::LowMask(width); }
  /// True with probability num/den.
  bool Chance(uint32_t num, uint32_t den) { return gen_() % den < num; }
  uint64_t Below(uint64_t n) { return n == 0 ? 0 : gen_() % n; }
  template <class T>
  const T& Pick(const std::vector<T>& v) {
    return v[Below(v.size())];
  }

 private:
  std::mt19937_64 gen_;
};

}  // namespace htm::tb
