// SPDX-License-Identifier: Apache-2.0
//
// The energy section of htmsim suite's report (docs/energy.md): Chen & Peng (HPCA 2016),
// Figure 9 (the energy of EA, PG and EA + PG over WarpTM's) and Chen, Peng & Irving (ISCA 2017),
// Figure 14 (KILO TM, SITM_TS and SITM_Oracle over WarpTM's), each with the time ratio beside
// the energy ratio, where the energy goes, and the paper's figures and findings tested.
#pragma once

#include <map>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "htm/machine/gpu/energy.h"
#include "htm/machine/gpu/system.h"
#include "svg_chart.h"

namespace htm::sim {

/// A run that passed: its statistics and energy.
struct EnergyRun {
  gpu::SystemStats stats;
  gpu::Energy energy;
};
/// The passed runs by workload and TM configuration.
using EnergyRuns = std::map<std::pair<std::string, gpu::TmMode>, EnergyRun>;

/// Writes the section (Markdown) and fills the two charts (fig9_energy.svg, fig14_energy.svg).
void WriteEnergy(const std::vector<const gpu::WorkloadInfo*>& workloads,
                 const gpu::MachineConfig& m, const EnergyRuns& runs, std::ostream& md,
                 BarChart* fig9, BarChart* fig14);

}  // namespace htm::sim
