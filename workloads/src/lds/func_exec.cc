// SPDX-License-Identifier: Apache-2.0
//
// The functional executor on one work-group and its LDS: see htm/lds/func_exec.h.
#include "htm/workloads/lds/func_exec.h"

#include <sstream>
#include <utility>

namespace htm::lds {

FuncExecResult RunFunctional(const Geometry& geo, std::vector<uint32_t> lds,
                             const std::function<Task(Lane&)>& kernel, const FuncExecOptions& opt) {
  const gpu::Geometry g{geo.wg_size, geo.wf_size, geo.lds_words};
  return gpu::RunFunctional(g, std::move(lds), kernel, opt,
                            gpu::Naming{"work-item", "wavefront", "LDS"});
}

WorkloadRun RunWorkload(Workload& w, const Geometry& geo, const FuncExecOptions& opt) {
  WorkloadRun run;
  run.exec = RunFunctional(
      geo, w.Init(), [&w](Lane& l) { return w.Kernel(l); }, opt);
  if (run.exec.ok) {
    run.check = w.Check(run.exec.mem);
  }
  return run;
}

std::string WorkloadRun::Summary() const {
  std::ostringstream os;
  const FuncExecStats& s = exec.stats;
  if (!exec.ok) {
    os << "error: " << exec.error;
  } else if (!check.empty()) {
    os << "check failed: " << check;
  } else {
    os << "ok";
  }
  os << " | ops " << s.ops << ", loads " << s.loads << ", stores " << s.stores << ", atomics "
     << s.atomics << ", barriers " << s.barriers << ", tx " << s.tx_commits << " commits / "
     << s.tx_tries << " tries / " << s.tx_aborts << " aborts, largest try " << s.max_tx_ops
     << " ops (" << s.max_tx_loads << " loads, " << s.max_tx_stores << " stores)";
  return os.str();
}

}  // namespace htm::lds
