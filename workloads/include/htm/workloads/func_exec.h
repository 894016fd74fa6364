// SPDX-License-Identifier: Apache-2.0
//
// The functional executor of kernels (htm/gpu/kernel.h): runs every thread on a plain array
// memory, without timing. Loads, stores and atomics act on the array at once; a transaction body
// runs to its end with no other thread in between (atomically), optionally after simulated aborts
// of some tries (its stores undone, the body restarted), which shows that bodies are
// restartable. The order in which threads run is random (seeded). It runs the LDS workloads (one
// work-group on the LDS, htm/lds/func_exec.h) and the global-memory workloads of the system
// model (every thread of the grid on global memory).
//
// It also enforces the rules kernels obey for the timed models, and fails with a message naming
// the threads, operations and program points concerned: an address outside the memory; a
// barrier, atomic or transaction inside a transaction body; a barrier that not every thread
// reaches; a deadlock (no thread can run); a livelock (an operation budget exhausted).
//
// Two schedules. kFree: any thread may run next, so a kernel must be right in every
// interleaving. kSimt: the SIMT rule (kernel.h): in each warp the threads at the lowest program
// point issue together as one instruction, and no other thread of that warp runs until all of
// them have executed it; this shows a kernel's loops reconverge (Latch()) without deadlock on
// SIMT hardware.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "htm/workloads/kernel.h"

namespace htm::gpu {

enum class Schedule : uint8_t {
  kFree,  // any thread next
  kSimt,  // per warp, lowest program point first, one instruction at a time
};
const char* ToString(Schedule s);

/// Deliberate damage to transactions, to show that a workload's Check() notices it.
enum class Fault : uint8_t {
  kNone,
  kLoseTx,       // one committing try that stored something: its stores are undone, it commits
  kTearTx,       // one such try: its last store is undone, it commits
  kRepeatTx,     // one such try: aborted without undoing its stores, so it runs again
  kNoIsolation,  // every body runs interleaved with the other threads (not atomically)
};
const char* ToString(Fault f);

/// The threads and the memory they run on.
struct Geometry {
  int threads = 256;     // all threads (a multiple of warp_size)
  int warp_size = 32;    // threads per warp (wavefront)
  int mem_words = 4096;  // words of memory
};

/// How messages name things: "thread", "warp", "memory" on global memory; "work-item",
/// "wavefront", "LDS" on the LDS.
struct Naming {
  const char* thread = "thread";
  const char* warp = "warp";
  const char* memory = "memory";
};

struct FuncExecOptions {
  uint64_t seed = 1;
  Schedule schedule = Schedule::kFree;
  /// Probability of a simulated abort before each operation of a body and before its commit.
  double abort_prob = 0.0;
  /// Simulated aborts of one transaction before its tries are left alone (forward progress).
  int max_aborts = 8;
  /// kFree: a picked thread runs 1..max_burst operations (random) before the next pick.
  int max_burst = 8;
  /// Operations (all threads) before the run is declared a livelock.
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
  bool ok = false;            // every thread finished, no rule broken
  std::string error;          // what went wrong when !ok
  std::vector<uint32_t> mem;  // the final memory (geometry's mem_words words)
  FuncExecStats stats;
  bool fault_applied = false;
};

/// Runs `kernel` on every thread of `geo` with `mem` (at most mem_words words, padded with zeros)
/// as the initial memory contents. Never throws for a kernel's fault: a kernel's exception becomes
/// an error message. Throws std::invalid_argument for an impossible geometry or options.
FuncExecResult RunFunctional(const Geometry& geo, std::vector<uint32_t> mem,
                             const std::function<Task(Lane&)>& kernel,
                             const FuncExecOptions& opt = {}, const Naming& naming = {});

}  // namespace htm::gpu
