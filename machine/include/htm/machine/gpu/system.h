// SPDX-License-Identifier: Apache-2.0
//
// The GPU-TM system model (docs/htmsim.md): SIMT cores run a workload's kernel (htm/gpu/kernel.h)
// warp by warp on global memory, and a TM configuration decides how transactions run:
//
//   serial  one transaction at a time in the whole GPU (a global token), accessing memory
//           directly: the baseline every TM configuration must agree with;
//   kilotm  KILO TM: each thread keeps a read log (address, value) and a write log; at the end
//           of the warp's transaction the log walker sends each thread's log to the commit
//           units of the memory partitions (the golden htm_commit_unit models, stepped through
//           their ports at half the core clock), which validate by value and commit in
//           commit-id order.
//   warptm  WarpTM: KILO TM, and before a warp's logs leave the core, the core's intra-warp
//           conflict detection (the golden htm_intra_warp_cd model, stepped through its ports
//           at the core clock) aborts the lanes that conflict with a lower lane of the same warp;
//           read-only lanes commit at the core when its temporal conflict detection (the golden
//           htm_tcd) finds nothing they read written since, once the older commit ids retired.
//   warptm-ea  WarpTM with Early-Abort (`000_...` §4): each commit unit's RCT (golden htm_rct)
//           counts the words of the transactions it holds and broadcasts 0<->1 changes to every
//           core's CAT (golden htm_cat); the intra-warp detection also looks each logged word up
//           in the core's CAT and aborts the lanes that conflict with committing transactions.
//   warptm-pg  WarpTM with Pause-and-Go (`000_...` §4.4): the RCTs and CATs as above, and each
//           core's Pause-and-Go check (golden htm_pag_check) looks every transactional load and
//           store of a warp up in the CAT; the lanes that hit pause until the others committed.
//   warptm-eapg  both.
//   sitm    snapshot isolation (`003_...` §3-6, SITM_TS): the snapshots and write-write commit of
//           sitm-oracle below; loops are detected as the paper does, by the golden Writer Table
//           (single writer per word), Scalable Reader List and post-dating unit, and a loop or
//           a refused entry aborts the transaction that made the access (docs/htmsim.md).
//   fgl     the baseline the KILO TM paper compares with: the workload's kernel written with
//           fine-grained locks (compare-and-swap spin locks, a fence before each release) and
//           no transactions, for the workloads that have one (Workload::HasLocks).
//   sitm-oracle  snapshot isolation (`003_...` §3-6, SITM_Oracle): each try reads the snapshot
//           that was newest at its TX_Begin from the multi-version memory (htm/gpu/si.h); the
//           commit units check the write set only (first committer wins, no read log, no
//           intra-warp detection); a commit that would close a cycle in the exact dependency
//           graph aborts (no single-writer rule, no post-dating cost).
//
// The machine: cores with resident warps and a round-robin warp scheduler issuing one warp
// instruction per cycle; the threads of a warp at the lowest program point issue together (the
// SIMT stack's reconvergence, htm/gpu/kernel.h); a transactional-warp limit per core; memory
// requests coalesced per line, sent over an interconnect with a fixed latency and one message
// per cycle per core and partition, served by each partition one per cycle after the memory
// latency. Every run checks itself: committed transactions are replayed in their serialization
// order against the model's memory (the values each read saw, the final memory), then the
// workload's Check() runs on the final memory.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "htm/golden/cat_model.h"
#include "htm/golden/commit_unit_model.h"
#include "htm/golden/intra_warp_cd_model.h"
#include "htm/golden/pag_check_model.h"
#include "htm/golden/postdate_model.h"
#include "htm/golden/rct_model.h"
#include "htm/golden/reader_list_model.h"
#include "htm/golden/tcd_model.h"
#include "htm/golden/writer_table_model.h"
#include "htm/workloads/gpu/workload.h"

namespace htm::gpu {

enum class TmMode : uint8_t {
  kSerial,
  kKiloTm,
  kWarpTm,
  kWarpTmEa,
  kWarpTmPg,
  kWarpTmEaPg,
  kSitm,
  kSitmOracle,
  kFgl  // not a TM configuration: the workload's fine-grained-lock kernel (a baseline)
};
/// Snapshot isolation: multi-version memory, write-write commit.
bool IsSi(TmMode m);
const char* ToString(TmMode m);
/// Every TM configuration, in the papers' order of comparison (not the fgl baseline).
const std::vector<TmMode>& AllTmModes();
/// False when `name` is neither a TM configuration nor "fgl".
bool ParseTmMode(const std::string& name, TmMode* m);

struct MachineConfig {
  std::string name;
  std::string summary;
  int cores = 15;
  int warps_per_core = 48;       // resident warps
  int tx_warps_per_core = 2;     // warps in a transaction at once (concurrency control)
  int partitions = 6;            // memory partitions, one commit unit each
  int icnt_latency = 5;          // core <-> partition, cycles
  int mem_latency = 330;         // a core's load at the partition: L2 and DRAM
  int cu_mem_latency = 115;      // a commit unit's validation read or commit write (ROP latency)
  int line_words = 32;           // 128-byte lines: one request per line a warp instruction touches
  int interleave_words = 64;     // 256-byte partition interleaving
  int alloc_retry = 100;         // cycles before a core asks again after AllocFail
  uint64_t max_tx_ops = 100000;  // operations of one try before it is treated as a zombie
  golden::CommitUnitParams cu;   // each partition's commit unit
  golden::IntraWarpCdParams iwcd;  // each core's intra-warp conflict detection (WarpTM)
  golden::RctParams rct;           // each commit unit's reference count table (Early-Abort)
  golden::CatParams cat;           // each core's conflict address table (Early-Abort)
  golden::PagCheckParams pag;      // each core's Pause-and-Go check
  // WarpTM's temporal conflict detection: each core's copy of the last-written-time table; off,
  // read-only transactions go to the commit units as in KILO TM.
  golden::TcdParams tcd;
  bool tcd_on = true;
  int si_versions = 8;               // snapshot isolation: concurrently active versions
  golden::WriterTableParams wt;      // SITM: the Writer Table
  golden::ReaderListTableParams rl;  // SITM: the Scalable Reader List
  golden::PostdateParams pd;         // SITM: the post-dating unit (its slots are transaction ids)
};
/// `default` (the papers' machine, `000_...` Table 1 / `003_...` Table 2) and `small` (tests).
const std::vector<MachineConfig>& AllMachines();
const MachineConfig* FindMachine(const std::string& name);
/// Empty when the machine is possible, else a message naming what is wrong.
std::string CheckMachine(const MachineConfig& m);

struct SystemStats {
  uint64_t cycles = 0;
  uint64_t threads = 0;
  uint64_t warp_instructions = 0;
  uint64_t mem_requests = 0;       // core requests (per line) to the partitions
  uint64_t commits = 0;            // committed transactions (threads)
  uint64_t tries = 0;              // transaction tries begun
  uint64_t aborts = 0;             // all causes
  uint64_t aborts_validation = 0;  // a commit unit replied Fail: a value changed
  uint64_t aborts_capacity = 0;    // a commit unit replied Fail: its word buffer was full
  uint64_t aborts_zombie = 0;      // an access outside memory or an endless try: inconsistent reads
  uint64_t aborts_intra_warp = 0;  // WarpTM: a conflict with a lower lane of the same warp
  uint64_t aborts_early = 0;       // Early-Abort: the CAT hit (and no intra-warp conflict)
  uint64_t read_only_commits = 0;  // committed without a commit unit (no writes, and no reads
                                   // or, under SI and WarpTM's TCD, a read-only one)
  uint64_t tx_cycles = 0;          // cycles of committed tries, from TX_Begin to the decision
  uint64_t wasted_cycles = 0;      // cycles of aborted tries
  uint64_t tx_limit_stalls = 0;    // times a warp waited at TX_Begin (token or per-core limit)
  uint64_t cu_messages = 0;        // core -> commit unit messages (Alloc, log words, DoneFill, ...)
  uint64_t cu_alloc_fails = 0;
  uint64_t cu_busy_cycles = 0;   // commit-unit cycles with busy set, summed over the units
  uint64_t cu_cycles = 0;        // commit-unit cycles, summed over the units
  uint64_t iwcd_warps = 0;       // WarpTM: warp commits through the intra-warp conflict detection
  uint64_t iwcd_cycles = 0;      // cycles from a warp's turn there to its outcome, summed
  uint64_t rct_messages = 0;     // Early-Abort: RCT messages, each broadcast to every core's CAT
  uint64_t rct_deltas = 0;       // deltas in them
  uint64_t rct_lost = 0;         // increments the RCTs could not count (queue, set full, saturated)
  uint64_t cat_lookups = 0;      // lanes looked up in the CATs
  uint64_t cat_hits = 0;         // of them, hits
  uint64_t cat_drops = 0;        // deltas a CAT dropped (set full)
  uint64_t pag_checks = 0;       // Pause-and-Go: transactional accesses through the check
  uint64_t pag_cycles = 0;       // cycles from a warp's turn there to the decision, summed
  uint64_t tcd_lanes = 0;        // WarpTM TCD: read-only lanes offered to it
  uint64_t tcd_commits = 0;      // of them, committed at the core
  uint64_t tcd_conflicts = 0;    // sent to the commit units: a chunk read was written since
  uint64_t tcd_stale = 0;        // sent to the commit units unchecked: the first read too old
  uint64_t tcd_checks = 0;       // table lookups (one per chunk per read-log row)
  uint64_t tcd_updates = 0;      // commit writes recorded, summed over the cores' tables
  uint64_t tcd_wait_cycles = 0;  // cycles warps waited for the older commit ids to retire
  uint64_t tcd_walk_cycles = 0;  // cycles from the start of a warp's lookups to its outcome
  uint64_t pauses = 0;           // lanes paused
  uint64_t ea_left = 0;          // entries the RCTs and CATs hold at the end (0: they agree)
  uint64_t log_events = 0;       // committed transactions and non-transactional writes replayed
  uint64_t aborts_loop = 0;      // snapshot isolation: the commit would close a dependency cycle
  uint64_t si_snapshots = 0;     // snapshots published (a warp's commits merged into one)
  uint64_t si_version_waits = 0;      // publications deferred: every version was in use
  uint64_t si_graph_edges = 0;        // dependency edges between the committed transactions
  uint64_t aborts_single_writer = 0;  // SITM: another transaction writes the word
  uint64_t aborts_si_full = 0;        // SITM: a table had no entry, or no transaction id was free
  uint64_t si_loops_missed = 0;       // SITM: a commit closed a cycle post-dating had not reported
                                      // (aborted by the model's exact graph, which hardware lacks)
  uint64_t si_pd_edges = 0;           // SITM: edges posted to the post-dating unit
  uint64_t si_pd_overflows = 0;       // SITM: logical-timestamp overflows (every try aborted)
  uint64_t si_retained_max = 0;  // SITM: most committed transactions kept in the tables at once
};

/// One entry of the serialization order: a committed transaction or a non-transactional write
/// (a store or an atomic; `reads` holds an atomic's old value).
struct LogEvent {
  enum class Kind : uint8_t { kTx, kWrite } kind = Kind::kTx;
  uint64_t id = 0;  // position in the serialization order, from 0
  int thread = 0;
  uint64_t cid = 0;    // kilotm: the commit id; serial: the position among transactions
  uint64_t cycle = 0;  // when it was decided (tx) or performed (write)
  struct Read {
    uint32_t addr, value;
    int64_t writer;  // id of the event whose write it saw; -1: the initial memory
  };
  std::vector<Read> reads;
  std::vector<std::pair<uint32_t, uint32_t>> writes;  // address, value
};

/// Receives the serialization order as the run produces it (e.g. the commit-log writer).
class LogSink {
 public:
  virtual ~LogSink() = default;
  virtual void Begin(const std::vector<uint32_t>& initial) = 0;
  virtual void Event(const LogEvent& e) = 0;
  virtual void End(const std::vector<uint32_t>& final_mem) = 0;
};

struct RunOptions {
  uint64_t seed = 1;
  uint64_t max_cycles = 0;  // 0: 200 000 000
  /// Jump over cycles in which nothing can change (default). Off, every cycle is simulated: a
  /// check that skipping changes nothing.
  bool skip_idle = true;
  LogSink* log = nullptr;
  /// Called now and then with the cycle and the threads finished.
  std::function<void(uint64_t cycle, uint64_t done, uint64_t threads)> progress;
};

struct RunResult {
  bool ok = false;    // finished, replay consistent, Check() empty
  std::string error;  // the model's or the replay's error ("" when none)
  std::string check;  // the workload's Check() message ("" when right)
  SystemStats stats;
  std::vector<uint32_t> mem;  // final memory
  std::vector<golden::CommitUnitModel::Stats> unit_stats;
};

/// Runs `w` to completion. Never throws for a workload's fault; throws std::invalid_argument for
/// an impossible machine.
RunResult RunSystem(const MachineConfig& m, TmMode tm, Workload& w, const RunOptions& opt = {});

}  // namespace htm::gpu
