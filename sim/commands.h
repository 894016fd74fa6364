// SPDX-License-Identifier: Apache-2.0
//
// htmsim's commands. Each takes its command line with argv[0] the command's name ("run",
// "lds", ...) and returns the exit status: 0 success, 1 a run or check failed, 2 bad usage
// (with a message on stderr). The dispatch table, which also writes `htmsim --help`, is in
// htmsim.cc.
#pragma once

#include <string>

namespace htm::sim {

int RunCommand(int argc, char** argv);       // htmsim_tm.cc
int ListCommand(int argc, char** argv);      // htmsim_tm.cc
int CheckCommand(int argc, char** argv);     // htmsim_tm.cc
int SuiteCommand(int argc, char** argv);     // htmsim_suite.cc
int LdsCommand(int argc, char** argv);       // htmsim_lds.cc
int EcrCommand(int argc, char** argv);       // htmsim_ecr.cc
int SiCommand(int argc, char** argv);        // htmsim_si.cc
int CuSystemCommand(int argc, char** argv);  // htmsim_cu_system.cc
int ProtoCommand(int argc, char** argv);     // htmsim_proto.cc
/// The block lockstep regression: htmsim_lockstep.cc in htmsim-rtl; htmsim, without the
/// Verilated models, hands it over to htmsim-rtl (htmsim.cc).
int LockstepCommand(int argc, char** argv);
/// The benches' coverage events (docs/coverage.md): htmsim_coverage.cc in htmsim-rtl, handed
/// over like lockstep.
int CoverageCommand(int argc, char** argv);

/// The path this process was started with (argv[0]), for the commands that print a command line
/// to reproduce a run.
const std::string& ProgramPath();

}  // namespace htm::sim
