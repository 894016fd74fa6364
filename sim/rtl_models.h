// SPDX-License-Identifier: Apache-2.0
//
// The Verilated models of the binary, as htmsim's commands see them. htmsim-rtl links them
// (rtl_models.cc over the generated registry, tb/); htmsim, built without Verilator, has none
// (rtl_models_none.cc). The commands reach a model only through these functions and the
// InstanceFactory (htm/golden/instance.h), so that the same command code builds into both.
#pragma once

#include <string>
#include <vector>

#include "htm/golden/instance.h"

namespace htm::sim {

/// True in htmsim-rtl, false in htmsim.
bool HasRtlModels();
/// The factory of the Verilated models (RTL and netlist of every named configuration; alone or
/// beside their golden models), or nullptr without them.
const golden::InstanceFactory* RtlModelFactory();
/// The RTL tops with a Verilated model here, sorted (empty without them).
std::vector<std::string> RtlModelBlocks();
/// The named configurations of `block` with an RTL (netlist = false) or netlist model here.
std::vector<std::string> RtlModelConfigs(const std::string& block, bool netlist);

}  // namespace htm::sim
