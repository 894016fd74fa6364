// SPDX-License-Identifier: Apache-2.0
//
// Helpers for directed tests: a directed test drives the RTL and the golden model in lockstep
// (every output still compared every cycle) and checks the expected values on the model's
// outputs, which equal the RTL's whenever the step passed.
#ifndef HTM_TB_DIRECTED_H_
#define HTM_TB_DIRECTED_H_

#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "htm/tb/lockstep.h"

namespace htm::tb {

// Run options of a directed test of block/config (seed 1: Verilator's randReset seed; waves
// to the file HTM_WAVES names, as the mismatch report's reproduce command says).
inline RunOptions DirectedOptions(const char* block, const char* config) {
  RunOptions o;
  o.block = block;
  o.config = config;
  o.seed = 1;
  if (const char* w = std::getenv("HTM_WAVES")) {
    o.waves = w;
  }
  o.repro = "build/tests/htm_tests";
  if (const auto* t = ::testing::UnitTest::GetInstance()->current_test_info()) {
    o.repro += std::string(" --gtest_filter=") + t->test_suite_name() + "." + t->name();
  }
  return o;
}

// The first lockstep failure of a directed test: thrown by DirectedCycle, so that the test
// ends there (Google Test reports the exception with the mismatch report as a failure) instead
// of waiting in a loop for a model that no longer steps.
class LockstepFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One cycle in lockstep; returns the model's (= the RTL's) outputs of the cycle. A mismatch or
// an RTL assertion throws LockstepFailure with the report.
template <class L, class In>
auto DirectedCycle(L& ls, const In& in) {
  auto out = ls.model().Eval(in);
  if (!ls.Step(in)) {
    throw LockstepFailure(ls.error());
  }
  return out;
}

// A mask written as in the thesis's tables, work-item 0 first: "0111" has bits 1, 2 and 3 set.
inline uint64_t TableMask(const std::string& s) {
  uint64_t m = 0;
  for (size_t i = 0; i < s.size() && i < 64; ++i) {
    if (s[i] == '1') {
      m |= uint64_t{1} << i;
    }
  }
  return m;
}

}  // namespace htm::tb

#endif  // HTM_TB_DIRECTED_H_
