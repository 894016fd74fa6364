// SPDX-License-Identifier: Apache-2.0
//
// The functional executor (htm/gpu/func_exec.h) on one work-group and its LDS: the GPU-LocalTM
// workloads' Init(), their kernel on every work-item, then their Check().
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "htm/workloads/func_exec.h"
#include "htm/workloads/lds/kernel.h"
#include "htm/workloads/lds/workload.h"

namespace htm::lds {

using gpu::Fault;
using gpu::FuncExecOptions;
using gpu::FuncExecResult;
using gpu::FuncExecStats;
using gpu::Schedule;
using gpu::ToString;

/// Runs `kernel` on every work-item of `geo` with `lds` (at most lds_words words, padded with
/// zeros) as the initial LDS contents; messages speak of work-items, wavefronts and the LDS.
FuncExecResult RunFunctional(const Geometry& geo, std::vector<uint32_t> lds,
                             const std::function<Task(Lane&)>& kernel,
                             const FuncExecOptions& opt = {});

/// A workload run: Init(), the kernel on every work-item, then Check() on the final LDS.
struct WorkloadRun {
  FuncExecResult exec;
  std::string check;  // Check()'s message ("" = right); empty when the run failed
  bool ok() const { return exec.ok && check.empty(); }
  /// One line: ok / the error or the check message, and the counts.
  std::string Summary() const;
};
WorkloadRun RunWorkload(Workload& w, const Geometry& geo, const FuncExecOptions& opt = {});

}  // namespace htm::lds
