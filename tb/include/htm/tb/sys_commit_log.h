// SPDX-License-Identifier: Apache-2.0
//
// The commit log of a run of htm_sys (docs/htm_sys.md, "The commit log"), assembled from the
// subsystem's commit-log port: per core a stream of log records (logw: commit id, thread, read or
// write, address, value, for every ReadSet and WriteSet the core's log walker sends) and of
// decisions (logd: commit id, thread, committed or not). The collector takes the port cycle by
// cycle; at the end of the run it writes the committed transactions in commit-id order as the
// commit log `htmsim check` reads (htm/machine/gpu/commit_log.h), with the prototype workload's
// identity and initial memory in the header and the run's final memory at the end, and checks it
// with htmsim check's checker. Aborted attempts are left out: the log holds the serialization
// order of what committed. Commit ids are CidW bits and wrap around: each is unwrapped to the
// value nearest the newest id seen before it (exact while the ids in flight span less than half
// of 2^CidW: at most NumCores * WarpSize are undecided at once, one committing slot per core).
// Used by the subsystem's lockstep bench (tb/include/htm/tb/benches/sys_bench.h), on the RTL's
// records, and by the twin's golden tests (tests/golden/sys_model_test.cc).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "htm/golden/sys_model.h"
#include "htm/workloads/gpu/proto.h"

namespace htm::tb {

class SysCommitLog {
 public:
  /// `machine` names the subsystem's configuration in the header (e.g. "htm_sys/small").
  SysCommitLog(const golden::SysParams& p, std::string machine);

  /// Clears what an earlier run left and starts the run of `w` (taken at the start).
  void Begin(const gpu::proto::Params& w);
  /// The commit-log port of one cycle of the run (`done_o` of the run's last cycle included).
  void Record(const golden::SysOut& out);

  /// The commit log of the run with the final memory `final_mem` (the workload's words): the
  /// header, the committed transactions in commit-id order, the final memory. Records that do
  /// not make a run (a commit id without a decision, a decision or record whose thread differs
  /// from its commit id's) end the log with an "incomplete" line saying so instead.
  std::string Log(const std::vector<uint32_t>& final_mem) const;
  /// Empty when htmsim check's checker accepts `log`, else its verdict (the line and the event).
  static std::string Check(const std::string& log);

  /// Transactions committed and attempts aborted in the run so far; commit ids that wrapped.
  uint64_t committed() const { return committed_.size(); }
  uint64_t aborted() const { return aborted_; }
  uint64_t wraps() const { return wraps_; }

 private:
  struct Tx {
    int64_t cid = 0;  // unwrapped
    uint64_t thread = 0;
    uint64_t cycle = 0;                                        // of the decision, from the start
    std::vector<std::pair<uint32_t, uint32_t>> reads, writes;  // address, value
  };
  int64_t Unwrap(uint64_t cid);
  // The attempt of commit id `cid` (its first record or decision opens it).
  Tx& Open(uint64_t cid, uint64_t thread, const char* what);
  void Fault(const std::string& why);

  int num_cores_ = 0;
  int cid_w_ = 0;
  std::string machine_;
  gpu::proto::Params w_;
  uint64_t cycle_ = 0;
  bool any_cid_ = false;
  int64_t newest_ = 0;           // the newest unwrapped commit id seen
  std::map<uint64_t, Tx> open_;  // by the CidW-bit commit id: attempts not yet decided
  std::vector<Tx> committed_;    // in decision order
  uint64_t aborted_ = 0, wraps_ = 0;
  std::string fault_;  // the first record that does not fit a run
};

}  // namespace htm::tb
