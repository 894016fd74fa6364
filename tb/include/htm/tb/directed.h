// SPDX-License-Identifier: Apache-2.0
//
// Helpers for directed tests: a directed test drives the RTL and the golden model in lockstep
// (every output still compared every cycle) and checks the expected values on the model's
// outputs, which equal the RTL's whenever the step passed.
#ifndef HTM_TB_DIRECTED_H_
#define HTM_TB_DIRECTED_H_

#include <cstdint>
#include <string>
#include <type_traits>

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

// A directed test's top when a configuration's RTL model is not built (LONG_MODEL without
// HTM_LONG): the test runs on the golden model alone, which is checked cycle for cycle against
// the RTL in the block's other configurations and, in the long build, in this one.
struct ModelOnlyTop {};

// The golden model stepped without an RTL model, with Lockstep's interface for directed tests.
template <class Model, class Params, class In>
class ModelOnly {
 public:
  ModelOnly(const Params& p, const RunOptions& /*opt*/) : model_(p) { model_.Reset(); }
  const Model& model() const { return model_; }
  bool Step(const In& in) {
    model_.Tick(in);
    return true;
  }
  const std::string& error() const { return error_; }

 private:
  Model model_;
  std::string error_;
};

// Lockstep of Ports/Top/Model, or the model alone when Top is ModelOnlyTop.
template <class Ports, class Top, class Model>
using DirectedRun = std::conditional_t<std::is_same_v<Top, ModelOnlyTop>,
                                       ModelOnly<Model, typename Ports::Params, typename Ports::In>,
                                       Lockstep<Ports, Top, Model>>;

}  // namespace htm::tb

#endif  // HTM_TB_DIRECTED_H_
