// SPDX-License-Identifier: Apache-2.0
//
// The GPU-TM system model as a composition (docs/htmsim.md, "Architecture"): the parts of the
// machine and the state they share. A run builds one Machine, which owns
//
//   EventLoop        the clock, the scheduled events (replies, memory operations) and the rule
//                    that jumps over cycles in which nothing can change (machine.cc);
//   SimtCore x C     warps, the warp scheduler, issue and coalescing, the transactional-warp
//                    limit, the warps' transaction state and the log walker (core.cc,
//                    log_walker.cc);
//   Interconnect     the links between cores and partitions and their latency
//                    (interconnect.h);
//   MemoryPartition x P  a partition's memory port and its commit unit with the validation and
//                    commit-write memory operations (partition.cc);
//   Serializer       the serialization order and its replay against the model's memory
//                    (serializer.cc);
//   TmPolicy         the TM configuration, chosen once: how transactions begin, read, write and
//                    commit, and the blocks that exist only under it (the cores' intra-warp
//                    detection, CATs, Pause-and-Go checks and temporal conflict detection, the
//                    partitions' RCTs, the snapshot-isolation tables; tm_policy.h).
//
// The parts reach each other through the Machine; the Machine's members are the wiring.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <queue>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "htm/golden/commit_unit_model.h"
#include "htm/golden/instance.h"
#include "htm/machine/gpu/system.h"
#include "htm/workloads/kernel.h"
#include "serializer.h"
#include "simt_stack.h"

namespace htm::gpu {

using WordLog = std::vector<std::pair<uint32_t, uint32_t>>;  // (address, value), in order

/// The entry of `log` (address, value pairs) for address a, or nullptr.
template <class Log>
auto* FindLog(Log& log, uint32_t a) {
  const auto it = std::find_if(log.begin(), log.end(), [a](const auto& x) { return x.first == a; });
  return it == log.end() ? nullptr : &*it;
}

struct Thread {
  std::unique_ptr<Lane> lane;
  bool done = false;
  // The current try.
  bool doomed = false;  // a zombie: stops at once, aborts at the commit
  // WarpTM: aborted by the intra-warp conflict detection, and why.
  enum class IwAbort : uint8_t { kNo, kIntraWarp, kEarly } iw_abort = IwAbort::kNo;
  // Snapshot isolation: why the try aborts (a loop: its access or commit closes a dependency
  // cycle; missed: the exact graph caught a cycle post-dating did not; a table or the ids were
  // full, or the logical timestamps overflowed).
  enum class SiWhy : uint8_t { kNone, kLoop, kMissed, kSingleWriter, kFull } si_why = SiWhy::kNone;
  int si_id = -1;  // SITM: the try's transaction id (its post-dating slot)
  std::vector<uint32_t> rl_words, wt_words;  // SITM: its entries in the Reader List, Writer Table
  uint64_t snap = 0;                         // snapshot isolation: the snapshot the try reads
  uint64_t first_read = 0;    // WarpTM's TCD: when the try's first load left for memory
  std::vector<int64_t> seen;  // snapshot isolation: per read, the graph node of its version
  uint64_t tx_start = 0, tx_ops = 0;
  WordLog reads;        // first read of each address
  WordLog writes;       // latest value per address
  uint32_t result = 0;  // the value the pending load or atomic returns
};

/// A message of the log walker to a commit unit.
struct Msg {
  CuMsg type;
  uint32_t addr = 0, data = 0;
};

/// One thread's transaction on its way through the commit units (KILO TM's log walker state).
struct Committer {
  int thread = 0, warp = 0, core = 0;
  uint64_t cid = 0;
  struct Link {
    bool need_alloc = true, alloc_wait = false;
    uint64_t retry_at = 0;
    std::deque<Msg> q;
    bool involved = false, writes = false;
    int rep = 0;  // 0 none, 1 Pass, 2 Fail
    bool done_wait = false;
  };
  std::vector<Link> links;
  bool decided = false, committed = false;
  bool capacity = false;  // a unit failed it because a word found its buffer full
  int64_t node = -1;      // snapshot isolation: its node in the dependency graph once passed
};

struct Warp {
  int core = 0;
  int first = 0;  // its first thread
  int slot = -1;  // its slot in the core (its SIMT stack) while resident
  bool launched = false, finished = false;
  bool blocked = false;  // waits at TX_Begin for the token or a transactional slot
  uint64_t ready_at = 0;
  int pending = 0;         // memory replies (or commit decisions) outstanding
  int stores_out = 0;      // non-transactional stores not yet performed
  std::vector<int> group;  // the threads of the instruction waiting for replies
  // Transaction state.
  bool in_tx = false, holds_slot = false, committing = false;
  bool tx_aborts = false;  // a lane of this transaction aborted (it runs again)
  bool pag_wait = false;   // Pause-and-Go: the access waits for the check's decision
  std::vector<int> tx;     // the threads in the current try (the SIMT stack's top Trans)
  // Pause-and-Go: paused lane groups, the latest last (the Trans entries below the top).
  std::vector<std::vector<int>> paused;
  std::deque<int> serial_wait;  // serial mode: threads of the group not yet run
  int serial_active = -1;
  std::vector<std::unique_ptr<Committer>> committers;
  // WarpTM's TCD: read-only lanes waiting for the core's temporal conflict detection, the
  // commit ids that must retire first (those allocated before their commit), since when.
  std::vector<int> tcd_lanes;
  uint64_t tcd_need = 0, tcd_queued = 0;
};

/// The clock and the events scheduled on it.
class EventLoop {
 public:
  uint64_t now = 0;
  void At(uint64_t time, std::function<void()> fn) {
    events_.push(Event{time, seq_++, std::move(fn)});
  }
  /// Runs the events due by now, oldest first, while `go()` holds.
  template <class Go>
  void RunDue(Go&& go) {
    while (!events_.empty() && events_.top().time <= now && go()) {
      Event e = events_.top();
      events_.pop();
      e.fn();
    }
  }
  bool empty() const { return events_.empty(); }
  /// The time of the next event (empty(): none).
  uint64_t next() const { return events_.top().time; }

 private:
  struct Event {
    uint64_t time, seq;
    std::function<void()> fn;
    bool operator>(const Event& o) const { return time != o.time ? time > o.time : seq > o.seq; }
  };
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events_;
  uint64_t seq_ = 0;
};

/// The links between the cores and the partitions: one message per cycle per core-to-partition
/// link, the interconnect's latency, and one request per cycle per partition (its port).
class Interconnect {
 public:
  Interconnect(const MachineConfig& m, SystemStats& stats)
      : m_(m),
        stats_(stats),
        part_free_(static_cast<size_t>(m.partitions), 0),
        link_free_(static_cast<size_t>(m.cores) * static_cast<size_t>(m.partitions), 0) {}
  /// A flit is the crossbar's width, 32 bytes a cycle (Chen & Peng, HPCA 2016, Table 1); every
  /// message carries an 8-byte header (route, type, commit id or address) with its data.
  static constexpr uint64_t kFlitBytes = 32, kHeaderBytes = 8;
  /// The flits of a message with `data_bytes` of data.
  static uint64_t Flits(uint64_t data_bytes) {
    return (kHeaderBytes + data_bytes + kFlitBytes - 1) / kFlitBytes;
  }
  /// Counts a message of `data_bytes` between a core and a partition (energy, docs/energy.md).
  void CountMessage(uint64_t data_bytes) { stats_.icnt_flits += Flits(data_bytes); }
  int latency() const { return m_.icnt_latency; }
  /// The partition of a word: 64-word interleave units, round-robin.
  int PartitionOf(uint32_t addr) const {
    return static_cast<int>((addr / static_cast<uint32_t>(m_.interleave_words)) %
                            static_cast<uint32_t>(m_.partitions));
  }
  /// Sends a memory request from core c to partition p at `now`: returns the cycle at which the
  /// partition performs it (after the link's slot, the interconnect, the partition's slot and
  /// `latency`).
  uint64_t Route(uint64_t now, int c, int p, int latency) {
    uint64_t& link = link_slot(c, p);
    const uint64_t sent = std::max(now, link);
    link = sent + 1;
    const uint64_t arrive = sent + static_cast<uint64_t>(m_.icnt_latency);
    const uint64_t served = std::max(arrive, part_free_[static_cast<size_t>(p)]);
    part_free_[static_cast<size_t>(p)] = served + 1;
    ++stats_.mem_requests;
    return served + static_cast<uint64_t>(latency);
  }
  /// The first cycle at which the link from core c to partition p is free.
  uint64_t& link_slot(int c, int p) {
    return link_free_[static_cast<size_t>(c) * static_cast<size_t>(m_.partitions) +
                      static_cast<size_t>(p)];
  }
  uint64_t link_free(int c, int p) const {
    return link_free_[static_cast<size_t>(c) * static_cast<size_t>(m_.partitions) +
                      static_cast<size_t>(p)];
  }

 private:
  const MachineConfig& m_;
  SystemStats& stats_;
  std::vector<uint64_t> part_free_, link_free_;
};

class Machine;
class TmPolicy;

/// A commit unit's input message, with its commit id and the core that sent it.
struct CuIn {
  Msg m;
  uint64_t cid;
  int core;
};

/// A memory partition: its commit unit (the golden htm_commit_unit, stepped through its ports at
/// half the core clock) with the queue of messages from the cores and the unit's validation
/// reads and commit writes, served after `cu_mem_latency`.
class MemoryPartition {
 public:
  MemoryPartition(Machine& m, int id);
  /// One commit-unit cycle; true when the unit had or has work.
  bool Cycle();
  /// A message from a core reaches the unit's input queue.
  void Deliver(const CuIn& in) { in_.push_back(in); }
  /// The unit has work without new input (queued messages, memory operations, open entries).
  bool Working() const { return !in_.empty() || !vr_.empty() || !cw_.empty() || working_; }
  /// What the unit is working on, for reports: the message at the head of its queue.
  std::string Context() const;

 private:
  struct MemOp {
    uint64_t due;
    uint32_t addr, data;
    uint64_t tag;
  };
  Machine& m_;
  int id_;
  std::unique_ptr<golden::Instance<golden::CommitUnitPorts>> unit_;
  std::deque<CuIn> in_;
  std::deque<MemOp> vr_, cw_;
  bool working_ = false;
};

/// A SIMT core: its resident warps and the ones waiting to launch, the warp scheduler, the
/// issue of warp instructions (coalesced memory requests, transactional accesses through the
/// TM policy), the transactional-warp limit, and the log walker that sends the warps' logs to
/// the commit units and gathers their replies.
class SimtCore {
 public:
  SimtCore(Machine& m, int id) : m_(m), id_(id) {}
  SimtCore(const SimtCore&) = delete;
  SimtCore& operator=(const SimtCore&) = delete;
  SimtCore(SimtCore&&) = default;
  int id() const { return id_; }
  /// Makes resident as many waiting warps as the core holds.
  void Launch();
  /// The warp scheduler: one instruction from the next ready warp. True when one issued.
  bool IssueCycle();
  /// The log walkers: at most one message per unit per cycle, oldest commit id first.
  bool SendCommitMessages();
  /// Adds the cycle at which the core next has something to do to `next` (idle skipping).
  void NextWake(uint64_t* next) const;

  std::deque<int> waiting;  // warps not yet launched
  std::vector<int> resident;
  int tx_warps = 0;               // warps holding a transactional slot
  std::vector<int> slot_waiters;  // warps waiting at TX_Begin for a slot
  /// The SIMT stack of warp wi (resident here), or nullptr when the TM policy has none.
  SimtStack* StackOf(const Warp& w) {
    return stacks_.empty() ? nullptr : stacks_[static_cast<size_t>(w.slot)].get();
  }

 private:
  int Issue(int wi);
  std::vector<int> Group(Warp& w) const;
  const Msg* Wants(const Committer& cm, int u) const;

  Machine& m_;
  int id_;
  size_t rr_ = 0;
  std::vector<std::unique_ptr<SimtStack>>
      stacks_;  // one per warp slot (empty: the policy has none)
  std::vector<bool> slot_used_;
};

/// The machine: its parts and the state they share (see the top of this file).
class Machine {
 public:
  Machine(const MachineConfig& m, TmMode tm, Workload& w, const RunOptions& opt);
  ~Machine();
  Machine(const Machine&) = delete;
  Machine& operator=(const Machine&) = delete;
  RunResult Run();

  // ---- The parts ---------------------------------------------------------------------------
  const MachineConfig& cfg;
  const TmMode tm;
  Workload& workload;
  const RunOptions& opt;
  EventLoop loop;
  Interconnect icnt;
  std::vector<SimtCore> cores;
  std::vector<MemoryPartition> partitions;
  std::unique_ptr<Serializer> serial;
  std::unique_ptr<TmPolicy> policy;

  // ---- Shared state ------------------------------------------------------------------------
  std::vector<uint32_t> mem;
  std::vector<Thread> threads;
  std::vector<Warp> warps;
  std::unordered_map<uint64_t, Committer*> by_cid;  // committers by the low bits of their cid
  uint64_t next_cid = 0;                            // the next commit id
  SystemStats stats;
  std::string error;
  int done_threads = 0, current = 0;

  uint64_t now() const { return loop.now; }
  void At(uint64_t time, std::function<void()> fn) { loop.At(time, std::move(fn)); }
  /// Records the run's first error (with the cycle); the run stops.
  void Fail(const std::string& what);
  /// "thread t (warp w) at <operation> of word a at line l", for messages.
  std::string Describe(int t) const;
  /// "commit id c (thread t, warp w)", or what is known of a commit id, for reports.
  std::string DescribeCid(uint64_t cid_low) const;

  /// A block instance of the machine: the golden model, or what opt.rtl selects for `block`
  /// (the RTL or netlist, alone or beside its golden model). `name` names the instance in
  /// reports and waves; `context` says what it is doing for the workload.
  template <class Model>
  std::unique_ptr<golden::Instance<typename Model::Ports>> MakeBlock(
      const std::string& block, const std::string& name, const typename Model::Ports::Params& p,
      std::function<std::string()> context = {}) {
    std::unique_ptr<golden::Instance<typename Model::Ports>> inst;
    if (!opt.rtl.Selects(block)) {
      inst = std::make_unique<golden::GoldenInstance<Model>>(p);
    } else {
      golden::InstanceInfo info;
      info.block = block;
      info.name = name;
      info.machine_cycle = [this] { return now(); };
      info.context = std::move(context);
      info.repro = opt.rtl.repro;
      info.waves = WavesFor(name);
      inst = opt.rtl.factory->Make<typename Model::Ports>(opt.rtl.impl, p, info);
    }
    instances.emplace_back(block, inst.get());
    return inst;
  }
  /// Every instance MakeBlock built, with its block (the parts own them; the machine outlives
  /// the parts' use of them): the run's coverage is read from them at its end.
  std::vector<std::pair<std::string, const golden::InstanceBase*>> instances;
  /// The FST file of instance `name` ("" none).
  std::string WavesFor(const std::string& name) const;
  bool InMemory(uint32_t addr) const { return addr < mem.size(); }
  SimtCore& core_of(int wi) { return cores[static_cast<size_t>(warps[wi].core)]; }

  // ---- Threads and warps (core.cc) ---------------------------------------------------------
  /// Marks thread t finished when its kernel returned.
  void Settle(int t);
  /// Resumes the threads of g with their pending results and runs them to their next operation.
  void ResumeAll(const std::vector<int>& g);
  /// One reply of warp wi's outstanding group arrived: when it was the last, resume the group.
  void Complete(int wi);
  /// The threads of g that are not zombies.
  std::vector<int> Live(const std::vector<int>& g) const;
  /// Thread t's try becomes a zombie: it stops at once and aborts at the commit.
  void Doom(int t);
  /// The waiting warps may issue again.
  void Wake(std::vector<int>& waiters);
  /// The thread's try as an event of the serialization order (writers are named by the replay).
  LogEvent TxEvent(int t) const;
  /// Groups the threads' addresses into line requests: (line, the threads of that line).
  std::map<uint32_t, std::vector<int>> Lines(const std::vector<int>& ts) const;
  /// The bytes of the 32-byte sectors the threads' addresses touch: a line request's reply data.
  uint64_t SectorBytes(const std::vector<int>& ts) const;
  /// A load, store or atomic outside a transaction (or a serialized transaction's access).
  int MemAccess(int wi, const std::vector<int>& g, bool atomic);
  /// A non-transactional store or atomic, performed now.
  void NonTxWrite(int t, uint32_t addr, uint32_t value, bool atomic, uint32_t old);
  /// Starts a try of thread t's transaction.
  void BeginTry(int t);
  /// The access of threads g, whatever it is (they are at the same transactional load or store).
  int PerformTxAccess(int wi, const std::vector<int>& g);
  /// Pause-and-Go: the check's decision for warp wi's waiting access.
  void Paused(int wi, uint64_t go, uint64_t pause);

  // ---- The commit path (log_walker.cc) -----------------------------------------------------
  /// Every thread of warp wi's try is at TX_Commit (or a zombie).
  void StartCommit(int wi);
  /// The log walker: each sending lane gets a commit id and its log is queued for the units.
  void SendLogs(int wi);
  /// Thread t's log goes to the commit units with the next commit id.
  void SendLog(int wi, int t);
  /// A commit unit's reply reaches the core. kind: -1 AllocPass, -2 AllocFail, else cu_rep_e.
  void Reply(int u, uint64_t cid_low, int kind, bool cap = false);
  /// The committer's outcome is final once every reply is in (and every commit acknowledged).
  void Decide(Committer& cm);
  /// Every thread of warp wi's try is decided: committed threads go on, the others retry.
  void FinishCommit(int wi);

 private:
  void RunInner();
  bool Quiet() const { return loop.empty() && !Working(); }
  /// A partition or a block of the TM policy has work this cycle.
  bool Working() const;
  /// Nothing happened this cycle: jump to the next event or the next warp that becomes ready.
  void SkipIdle();
  std::string Summary() const;
};

}  // namespace htm::gpu
