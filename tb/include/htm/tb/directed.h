// SPDX-License-Identifier: Apache-2.0
//
// Helpers for directed tests: a directed test drives the RTL and the golden model in lockstep
// (every output still compared every cycle) and checks the expected values on the model's
// outputs, which equal the RTL's whenever the step passed.
#ifndef HTM_TB_DIRECTED_H_
#define HTM_TB_DIRECTED_H_

#include <gtest/gtest.h>

#include "htm/tb/lockstep.h"

namespace htm::tb {

// Run options of a directed test of block/config (seed 1: Verilator's randReset seed).
inline RunOptions DirectedOptions(const char* block, const char* config) {
  RunOptions o;
  o.block = block;
  o.config = config;
  o.seed = 1;
  o.repro = "(directed test)";
  return o;
}

// One cycle in lockstep; returns the model's (= the RTL's) outputs of the cycle.
template <class L, class In>
auto DirectedCycle(L& ls, const In& in) {
  auto out = ls.model().Eval(in);
  EXPECT_TRUE(ls.Step(in)) << ls.error();
  return out;
}

}  // namespace htm::tb

#endif  // HTM_TB_DIRECTED_H_
