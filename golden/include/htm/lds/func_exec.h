// SPDX-License-Identifier: Apache-2.0
//
// The functional executor of the GPU-LocalTM kernels (htm/lds/kernel.h): runs every work-item of
// a work-group on a plain array LDS, without timing. Loads, stores and atomics act on the array
// at once; a transaction body runs to its end with no other work-item in between (atomically),
// optionally after simulated aborts of some tries (its stores undone, the body restarted), which
// shows that bodies are restartable. The order in which work-items run is random (seeded).
//
// It also enforces the rules kernels obey for the compute-unit model, and fails with a message
// naming the work-items, operations and program points concerned: an address outside the LDS; a
// barrier, atomic or transaction inside a transaction body; a barrier that not every work-item
// reaches; a deadlock (no work-item can run); a livelock (an operation budget exhausted).
//
// Two schedules. kFree: any work-item may run next, so a kernel must be right in every
// interleaving. kSimt: the compute unit's rule (kernel.h): in each wavefront the work-items at
// the lowest program point issue together as one instruction, and no other work-item of that
// wavefront runs until all of them have executed it; this shows a kernel's loops reconverge
// (Latch()) without deadlock on SIMT hardware.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "htm/lds/kernel.h"
#include "htm/lds/workload.h"

namespace htm::lds {

enum class Schedule : uint8_t {
  kFree,  // any work-item next
  kSimt,  // per wavefront, lowest program point first, one instruction at a time
};
const char* ToString(Schedule s);

/// Deliberate damage to transactions, to show that a workload's Check() notices it.
enum class Fault : uint8_t {
  kNone,
  kLoseTx,       // one committing try that stored something: its stores are undone, it commits
  kTearTx,       // one such try: its last store is undone, it commits
  kRepeatTx,     // one such try: aborted without undoing its stores, so it runs again
  kNoIsolation,  // every body runs interleaved with the other work-items (not atomically)
};
const char* ToString(Fault f);

struct FuncExecOptions {
  uint64_t seed = 1;
  Schedule schedule = Schedule::kFree;
  /// Probability of a simulated abort before each operation of a body and before its commit.
  double abort_prob = 0.0;
  /// Simulated aborts of one transaction before its tries are left alone (forward progress).
  int max_aborts = 8;
  /// kFree: a picked work-item runs 1..max_burst operations (random) before the next pick.
  int max_burst = 8;
  /// Operations (all work-items) before the run is declared a livelock.
  uint64_t max_ops = 100'000'000;
  /// Operations of one try of a body before it is declared endless.
  uint64_t max_tx_ops = 1'000'000;
  Fault fault = Fault::kNone;
  /// kLoseTx, kTearTx, kRepeatTx: the index (from 0) of the committing try with stores it hits.
  uint64_t fault_at = 0;
};

struct FuncExecStats {
  uint64_t ops = 0;  // operations performed (every kind, bodies included)
  uint64_t loads = 0, stores = 0, atomics = 0, computes = 0, latches = 0;
  uint64_t alu = 0;       // sum of Compute(n)
  uint64_t barriers = 0;  // barrier releases
  uint64_t tx_commits = 0, tx_writing_commits = 0, tx_tries = 0, tx_aborts = 0;
  uint64_t tx_ops = 0;  // operations inside bodies (all tries)
  // The largest committed try.
  uint64_t max_tx_ops = 0, max_tx_loads = 0, max_tx_stores = 0;
};

struct FuncExecResult {
  bool ok = false;            // every work-item finished, no rule broken
  std::string error;          // what went wrong when !ok
  std::vector<uint32_t> lds;  // the final LDS (geometry's lds_words words)
  FuncExecStats stats;
  bool fault_applied = false;
};

/// Runs `kernel` on every work-item of `geo` with `lds` (at most lds_words words, padded with
/// zeros) as the initial LDS contents. Never throws for a kernel's fault: a kernel's exception
/// becomes an error message. Throws std::invalid_argument for an impossible geometry or options.
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
