// SPDX-License-Identifier: Apache-2.0
//
// htmsim's workload commands (run, list, check) on the GPU-TM system model.
#pragma once

#include <string>

namespace htm::sim {

/// True for the commands TmCommand handles.
bool IsTmCommand(const std::string& cmd);
/// Runs a command; argv[0] is the command's name. Returns the exit status.
int TmCommand(int argc, char** argv);

}  // namespace htm::sim
