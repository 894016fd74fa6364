// SPDX-License-Identifier: Apache-2.0
//
// Looking up the GPU-LocalTM benchmark variants of AllWorkloads() (htm/lds/workload.h) by name.
// The benchmarks themselves, their sizes and what Check() verifies: docs/lds_workloads.md.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "htm/workloads/lds/workload.h"

namespace htm::lds {

/// "LC" or "HC".
const char* ToString(Contention c);

/// The benchmarks of thesis Table 5.7 in the thesis's order: HT, IT, VA, GC, GA, KM, DB, QU.
const std::vector<std::string>& BenchmarkNames();

/// The variant called `name`, as in WorkloadInfo::name (e.g. "KM-HC/fgl"). Throws
/// std::invalid_argument for an unknown name.
const WorkloadInfo& FindWorkload(std::string_view name);

}  // namespace htm::lds
