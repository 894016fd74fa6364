// SPDX-License-Identifier: Apache-2.0
//
// The coverage flow's smoke run (CTest coverage.report, cmake/HtmCoverage.cmake): htm_rr_arb/odd
// Verilated with line, toggle and user coverage, its lockstep bench for a few hundred cycles at
// seed 1. At the pair's destruction the model's final block hands its counts to the process
// (htm_cov_final), which writes one .dat under $HTM_COVERAGE_DIR at exit: the path every test of
// the coverage tree takes.
#include <cstdio>

#include "Vhtm_cov_smoke.h"

#include "htm/configs/htm_rr_arb.h"
#include "htm/tb/registry.h"

int main() {
  htm::tb::RunOptions o;
  o.block = "htm_rr_arb";
  o.config = "odd";
  o.seed = 1;
  o.cycles = 400;
  const htm::tb::RunResult r =
      htm::tb::RunLockstep<htm::tb::RrArbBench, Vhtm_cov_smoke>(htm::configs::htm_rr_arb::kOdd, o);
  if (!r.passed) {
    std::fprintf(stderr, "%s\n", r.error.c_str());
    return 1;
  }
  std::printf("htm_rr_arb/odd: %llu cycles\n", static_cast<unsigned long long>(r.cycles));
  return 0;
}
