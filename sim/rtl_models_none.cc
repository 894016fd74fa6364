// SPDX-License-Identifier: Apache-2.0
//
// htmsim without Verilated models (rtl_models.h): every instance is a golden model. The
// commands that need the models (lockstep; --rtl of run, suite, lds rates and ecr rates) are
// handed over to htmsim-rtl before they start (htmsim.cc), so the lockstep command here is only
// a fallback that does the same.
#include <iostream>

#include "commands.h"
#include "rtl_models.h"

namespace htm::sim {

bool HasRtlModels() {
  return false;
}

const golden::InstanceFactory* RtlModelFactory() {
  return nullptr;
}

std::vector<std::string> RtlModelBlocks() {
  return {};
}

std::vector<std::string> RtlModelConfigs(const std::string&, bool) {
  return {};
}

int CoverageCommand(int, char**) {
  std::cerr << "htmsim coverage: this htmsim has the golden models only; the benches are in "
               "htmsim-rtl\n";
  return 2;
}

int LockstepCommand(int, char**) {
  std::cerr << "htmsim lockstep: this htmsim has the golden models only; the lockstep "
               "regression is in htmsim-rtl\n";
  return 2;
}

}  // namespace htm::sim
