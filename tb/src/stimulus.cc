// SPDX-License-Identifier: Apache-2.0
#include "htm/tb/stimulus.h"

#include <cstdlib>
#include <stdexcept>
#include <string>

namespace htm::tb {

uint64_t FreshSeed() {
  std::random_device rd;
  return (static_cast<uint64_t>(rd()) << 32 | rd()) % 1000000000;
}

uint64_t SeedFromEnv() {
  const char* env = std::getenv("HTM_SEED");
  if (env == nullptr || *env == '\0') {
    return FreshSeed();
  }
  size_t used = 0;
  uint64_t seed = 0;
  try {
    seed = std::stoull(env, &used, 0);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || env[used] != '\0') {
    throw std::invalid_argument(std::string("HTM_SEED is not a number: '") + env + "'");
  }
  return seed;
}

std::vector<SeedRun> SeedRuns(uint64_t cycles) {
  const char* env = std::getenv("HTM_SEED");
  if (env != nullptr && *env != '\0') {
    return {SeedRun{SeedFromEnv(), cycles, false}};
  }
  const uint64_t fresh = cycles / 4 > 0 ? cycles / 4 : 1;
  const uint64_t fixed = cycles > fresh ? cycles - fresh : 1;
  return {SeedRun{kFixedSeed, fixed, false}, SeedRun{FreshSeed(), fresh, true}};
}

}  // namespace htm::tb
