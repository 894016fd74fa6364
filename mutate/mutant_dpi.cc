// SPDX-License-Identifier: Apache-2.0
//
// The mutation selector of the instrumented models (mutate/sv_mutants.py): each block's copy
// asks once, at start-up, which of its mutants to enable. $HTM_MUTANT is "<block>:<id>"; a
// model of another block, or no $HTM_MUTANT, gets 0: the original design. A malformed value
// stops the run (exit 2), so that a typo cannot pass for a surviving mutant.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

extern "C" unsigned int htm_mutant_sel(const char* block) {
  const char* env = std::getenv("HTM_MUTANT");
  if (env == nullptr || *env == '\0') {
    return 0;
  }
  const char* colon = std::strrchr(env, ':');
  char* end = nullptr;
  const unsigned long id = colon != nullptr ? std::strtoul(colon + 1, &end, 10) : 0;
  if (colon == nullptr || colon == env || end == colon + 1 || *end != '\0' || id == 0 ||
      id > 0xffffffffUL) {
    std::fprintf(stderr, "HTM_MUTANT must be <block>:<id> with id >= 1, not '%s'\n", env);
    std::exit(2);
  }
  if (std::string(env, colon) != block) {
    return 0;
  }
  return static_cast<unsigned int>(id);
}
