// SPDX-License-Identifier: Apache-2.0
//
// The InstanceFactory of the Verilated models built into this binary (htm/golden/instance.h):
// a machine's block instance becomes the RTL or the Yosys netlist of the named configuration
// whose parameters equal the instance's, alone or beside its golden model
// (docs/htmsim.md, "RTL in the loop").
#pragma once

#include <string>
#include <vector>

#include "htm/golden/instance.h"

namespace htm::tb {

/// The factory over every (block, configuration) model linked into the binary (Registry()).
const golden::InstanceFactory& ModelFactory();
/// The named configurations of `block` with an RTL (netlist = false) or netlist model here.
std::vector<std::string> ModelConfigs(const std::string& block, bool netlist);

}  // namespace htm::tb
