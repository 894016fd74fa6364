// SPDX-License-Identifier: Apache-2.0
//
// The options that put Verilated models in the loop of a system-model run (htmsim run and suite;
// docs/htmsim.md, "RTL in the loop"): --rtl all|BLOCK[,BLOCK...], --netlist, --unchecked,
// --waves FILE, --waves-instance NAME.
#pragma once

#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "htm/machine/gpu/system.h"

namespace htm::sim {

struct RtlArgs {
  std::string rtl;  // "all", or comma-separated RTL tops; "" every instance golden
  bool netlist = false;
  bool unchecked = false;
  std::string waves, waves_instance;

  /// Adds the options to `d`.
  void Add(boost::program_options::options_description& d);
  /// True when a non-golden instance is asked for.
  bool any() const { return !rtl.empty(); }
  /// Checks the options against the project's blocks: "" or the message (bad usage).
  std::string Validate() const;
  /// The selection for one run of `tm` on machine `m`: "" or the message (bad usage). With
  /// `strict`, a named block the machine does not have under `tm` is an error; otherwise it is
  /// left out of this run (the suite's runs differ in their blocks).
  std::string Resolve(const gpu::MachineConfig& m, gpu::TmMode tm, const std::string& repro,
                      bool strict, gpu::RtlSelection* out) const;
  /// The options as they would be written on a command line (for reproduce commands).
  std::string CommandLine() const;
};

/// The blocks of machine `m` under `tm`, their instances and the named configurations with an
/// RTL (and netlist) model, marking the one that matches the machine: for messages.
std::string BlockTable(const gpu::MachineConfig& m, gpu::TmMode tm);

}  // namespace htm::sim
