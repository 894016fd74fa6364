// SPDX-License-Identifier: Apache-2.0
//
// The compute-unit model of GPU-LocalTM: one work-group's wavefronts running a workload's
// kernel (htm/lds/kernel.h) on the golden model of the LDS top (htm_lds_tm), cycle by cycle
// through its instruction port. See docs/lds_cu.md for the instruction timing.
//
// Each wavefront executes its work-items in SIMT fashion: the work-items at the lowest program
// point with the same operation form one wavefront instruction; EXEC is written (an ExecWrite
// instruction) whenever the group differs from EXEC. Inside a try the group is chosen among the
// try's work-items that still run (TCM clear); TX_Commit is issued when all of them have
// finished the body. The try's work-items are those the LDS runs after TX_Begin (EXEC & ~TCM:
// all of them, or the ones WfS/WgS selected); at TX_Commit the committed work-items continue
// after the transaction and the others restart the body at the retry's TX_Begin, which follows
// at once. A try aborted by another wavefront's work-group serialization restarts every
// work-item of the try.
//
// Timing: one instruction per cycle enters the LDS port (round robin over the wavefronts that
// have one ready); a wavefront has at most one memory instruction in flight and waits for its
// response; a scalar instruction (EXEC write, TX_Begin, TX_Commit, a latch, a barrier) takes
// the wavefront one cycle; Compute(n) takes n vector ALU instructions of valu_cycles each.
#pragma once

#include <array>
#include <bitset>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "htm/golden/lds_tm_model.h"
#include "htm/workloads/lds/kernel.h"
#include "htm/workloads/lds/workload.h"

namespace htm::lds {

struct CuTiming {
  /// Cycles of one vector ALU instruction of a wavefront (64 work-items on a 16-lane SIMD).
  int valu_cycles = 4;
  /// A run with no instruction accepted and no response for this long is a deadlock.
  uint64_t stall_limit = 200000;
  /// Cycles before a run is abandoned.
  uint64_t max_cycles = 400'000'000;
};

struct CuStats {
  uint64_t cycles = 0;           // from the first instruction of the kernel to the last response
  uint64_t init_cycles = 0;      // writing the initial LDS contents (not in `cycles`)
  uint64_t instructions = 0;     // wavefront instructions accepted by the LDS port, and ALU ones
  uint64_t tx_instructions = 0;  // of them, inside tries
  uint64_t exec_writes = 0;
  uint64_t mem_instructions = 0, lds_accesses = 0;
  uint64_t transactions = 0;      // wavefront transactions completed (every work-item committed)
  uint64_t tries = 0;             // wavefront tries (TX_Begin of a transaction or a retry)
  uint64_t tries_committing = 0;  // tries in which at least one work-item committed
  std::array<uint64_t, 4> tries_by_mode{};  // indexed by LdsMode: Tx, WfS, WgS
  uint64_t wgs_aborted_tries = 0;           // tries aborted by another wavefront's WgS
  uint64_t wi_tries = 0, wi_commits = 0;    // work-item tries (body starts) and commits
  uint64_t positives = 0;                   // conflicts answered by the LDS
  uint64_t false_positives = 0;  // of them, with no other live transaction having written the
                                 // word (or read it, for a write)
  std::vector<uint64_t> wf_tries, wf_tries_committing;  // per wavefront
  uint64_t barriers = 0;
};

struct CuResult {
  bool ok = false;
  std::string error;          // the run failed (deadlock, bad kernel, check) when !ok
  std::string check;          // the workload's Check() message (empty: the final state is right)
  std::vector<uint32_t> lds;  // the final LDS contents (the workload's words)
  CuStats stats;
};

class ComputeUnit {
 public:
  /// Throws std::invalid_argument on LDS parameters the RTL does not accept.
  explicit ComputeUnit(const golden::LdsTmParams& p, const CuTiming& t = {});

  /// Runs `w` to its end on a freshly reset LDS, then checks its final state.
  CuResult Run(Workload& w);

  const golden::LdsTmParams& params() const { return p_; }

 private:
  struct Wf;
  struct Access;
  class Impl;

  golden::LdsTmParams p_;
  CuTiming t_;
};

}  // namespace htm::lds
