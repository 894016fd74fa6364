// SPDX-License-Identifier: Apache-2.0
//
// htmsim-rtl's Verilated models (rtl_models.h): the generated registry of every (block,
// configuration) model and its InstanceFactory (tb/).
#include "rtl_models.h"

#include <set>

#include "htm/tb/model_factory.h"
#include "htm/tb/registry.h"

namespace htm::sim {

bool HasRtlModels() {
  return true;
}

const golden::InstanceFactory* RtlModelFactory() {
  return &tb::ModelFactory();
}

std::vector<std::string> RtlModelBlocks() {
  std::set<std::string> b;
  for (const tb::Entry& e : tb::Registry()) {
    b.insert(e.block);
  }
  return {b.begin(), b.end()};
}

std::vector<std::string> RtlModelConfigs(const std::string& block, bool netlist) {
  return tb::ModelConfigs(block, netlist);
}

}  // namespace htm::sim
