// SPDX-License-Identifier: Apache-2.0
//
// What htmsim's workload commands (run, list, check, suite; commands.h) share on the GPU-TM
// system model.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "htm/machine/gpu/system.h"

namespace htm::sim {

/// The workloads' and the TM configurations' names, comma-separated, for messages.
std::string WorkloadNames();
std::string TmNames();
/// True when the workload has a fine-grained-lock kernel (the fgl baseline); the names of
/// those that have one, comma-separated.
bool HasLockKernel(const gpu::WorkloadInfo& w);
std::string LockWorkloadNames();

/// What a run was: the names in its statistics record.
struct RunLabel {
  std::string workload, tm, config, scale;
  uint64_t seed = 0;
};
/// Every statistic with its JSON key, in one order for every output.
std::vector<std::pair<const char*, uint64_t>> StatFields(const gpu::SystemStats& s);
/// The energy's total and parts with their JSON keys, in microjoules to the nanojoule (fixed
/// decimals: the same run writes the same text).
std::vector<std::pair<const char*, std::string>> EnergyFields(const gpu::Energy& e);
/// One JSON object on one line: the label, `ok`, every statistic, the energy and the seconds it
/// took.
void WriteStatsJson(std::ostream& os, const RunLabel& l, bool ok, const gpu::SystemStats& s,
                    const gpu::Energy& e, double seconds);

}  // namespace htm::sim
