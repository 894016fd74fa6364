// SPDX-License-Identifier: Apache-2.0
//
// Seeded constrained-random helpers and the seed convention: HTM_SEED from the environment, or a
// fixed seed and a fresh random one (SeedRuns), always printed so that a failure can be
// reproduced.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "htm/golden/ports.h"

namespace htm::tb {

/// The seed of this run: $HTM_SEED if set (decimal or 0x hex), else a random one.
/// Throws std::invalid_argument if HTM_SEED is not a number.
uint64_t SeedFromEnv();

/// A fresh random seed (below 10^9, so that it is easy to type back as HTM_SEED).
uint64_t FreshSeed();

/// The fixed seed of every lockstep and netlist test in `make test` (docs/verification.md,
/// "Seeds"): the same stimulus on every run, so that a pass or a failure is a fact of the code.
inline constexpr uint64_t kFixedSeed = 1;

/// One run of a seeded test.
struct SeedRun {
  uint64_t seed = 0;
  uint64_t cycles = 0;
  bool fresh = false;  // a fresh random seed: new stimulus on every run
};

/// The runs of a seeded test of `cycles` cycles (its length in `make test`):
///  * HTM_SEED set: that seed alone, for `cycles` (a replay, or a seed sweep);
///  * otherwise the fixed seed (kFixedSeed) for cycles - cycles / 4, then a fresh random seed for
///    the other quarter (at least one cycle each): the same total length as one run, so the
///    test is no slower, and every run still tries new stimulus.
/// Throws std::invalid_argument if HTM_SEED is not a number.
std::vector<SeedRun> SeedRuns(uint64_t cycles);

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
