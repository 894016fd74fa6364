// SPDX-License-Identifier: Apache-2.0
//
// The GPU-TM system model: see htm/gpu/system.h and docs/htmsim.md.
#include "htm/machine/gpu/system.h"

#include <algorithm>
#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <optional>
#include <queue>
#include <sstream>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

#include "htm/enums.h"
#include "htm/machine/gpu/cat_channel.h"
#include "htm/machine/gpu/ecr_core.h"
#include "htm/machine/gpu/si.h"

namespace htm::gpu {

const char* ToString(TmMode m) {
  switch (m) {
    case TmMode::kSerial:
      return "serial";
    case TmMode::kKiloTm:
      return "kilotm";
    case TmMode::kWarpTm:
      return "warptm";
    case TmMode::kWarpTmEa:
      return "warptm-ea";
    case TmMode::kWarpTmPg:
      return "warptm-pg";
    case TmMode::kWarpTmEaPg:
      return "warptm-eapg";
    case TmMode::kSitm:
      return "sitm";
    case TmMode::kSitmOracle:
      return "sitm-oracle";
    case TmMode::kFgl:
      return "fgl";
  }
  return "?";
}

bool IsSi(TmMode m) {
  return m == TmMode::kSitm || m == TmMode::kSitmOracle;
}

const std::vector<TmMode>& AllTmModes() {
  static const std::vector<TmMode> all = {
      TmMode::kSerial,   TmMode::kKiloTm,     TmMode::kWarpTm, TmMode::kWarpTmEa,
      TmMode::kWarpTmPg, TmMode::kWarpTmEaPg, TmMode::kSitm,   TmMode::kSitmOracle};
  return all;
}

bool ParseTmMode(const std::string& name, TmMode* m) {
  if (name == ToString(TmMode::kFgl)) {
    *m = TmMode::kFgl;
    return true;
  }
  for (const TmMode t : AllTmModes()) {
    if (name == ToString(t)) {
      *m = t;
      return true;
    }
  }
  return false;
}

namespace {

MachineConfig Paper() {
  MachineConfig m;
  m.name = "default";
  m.summary =
      "the papers' machine: 15 cores x 48 warps, 2 transactional warps per core, 6 partitions, "
      "5-cycle interconnect, 330-cycle memory, commit units at half the core clock";
  // The commit unit's paper size (docs/htm_commit_unit.md).
  m.cu = golden::CommitUnitParams{.addr_w = 30,
                                  .data_w = 32,
                                  .cid_w = 16,
                                  .src_w = 8,
                                  .ring_size = 1024,
                                  .buf_words = 4096,
                                  .val_tags = 16,
                                  .lwh_sets = 256,
                                  .lwh_ways = 4,
                                  .lwh_bf_hashes = 4,
                                  .lwh_bf_slots = 256,
                                  .lwh_scrub_interval = 32};
  // WarpTM's ownership table (docs/htm_intra_warp_cd.md): 4096 entries, four lanes a cycle.
  m.iwcd = golden::IntraWarpCdParams{.addr_w = 30, .warp_size = 32, .entries = 4096, .banks = 4};
  // Early-Abort's tables (docs/early_cr.md): 3072 entries each, messages of 8 deltas.
  m.rct = golden::RctParams{.addr_w = 30,
                            .sets = 1024,
                            .ways = 3,
                            .count_w = 5,
                            .inc_queue = 4,
                            .batch = 8,
                            .flush_cycles = 16};
  m.cat = golden::CatParams{
      .addr_w = 30, .sets = 1024, .ways = 3, .num_ports = 4, .warp_size = 32, .batch = 8};
  m.pag = golden::PagCheckParams{.addr_w = 30, .warp_size = 32};
  // WarpTM's last-written-time table (docs/htm_tcd.md): 128-byte chunks, 4 x 512 slots.
  m.tcd = golden::TcdParams{.addr_w = 30,
                            .chunk_shift = 5,
                            .ts_w = 20,
                            .num_hashes = 4,
                            .slots_per_hash = 512,
                            .scrub_interval = 256};
  // Snapshot isolation's tables at the paper's sizes (docs/si.md, 003_ 4.3): 3000 writers,
  // 87 856 reader entries, 1024 transaction ids and 24-bit logical timestamps.
  m.wt = golden::WriterTableParams{.addr_w = 30, .tx_w = 10, .sets = 1000, .ways = 3};
  m.rl = golden::ReaderListTableParams{
      .addr_w = 30, .num_tx = 1024, .leaf_w = 32, .sets = 21964, .ways = 4};
  m.pd = golden::PostdateParams{.num_tx = 1024, .ts_w = 24, .inc = 10};
  return m;
}

MachineConfig Small() {
  MachineConfig m = Paper();
  m.name = "small";
  m.summary =
      "for tests: 2 cores x 4 warps, 2 partitions, 40-cycle memory, commit units with a "
      "32-entry ring and 256 buffer words (ids and ring wrap within a run), 3 snapshot versions";
  m.cores = 2;
  m.warps_per_core = 4;
  m.partitions = 2;
  m.mem_latency = 40;
  m.cu_mem_latency = 12;
  m.interleave_words = 8;
  m.alloc_retry = 20;
  m.cu.cid_w = 10;
  m.cu.src_w = 2;
  m.cu.ring_size = 32;
  m.cu.buf_words = 256;
  m.cu.val_tags = 4;
  m.cu.lwh_sets = 16;
  m.cu.lwh_ways = 2;
  m.cu.lwh_bf_slots = 32;
  m.cu.lwh_scrub_interval = 4;
  m.iwcd.entries = 64;  // hash aliasing within a warp is frequent
  m.iwcd.banks = 2;
  m.rct.sets = 8;  // tables that fill: lost increments and dropped deltas
  m.rct.ways = 2;
  m.rct.count_w = 3;
  m.rct.batch = 3;
  m.rct.flush_cycles = 5;
  m.cat.sets = 8;
  m.cat.ways = 2;
  m.cat.batch = 3;
  m.tcd.chunk_shift = 2;  // 16-byte chunks in a 2 x 16 filter: aliasing is frequent
  m.tcd.ts_w = 12;        // stale after 1024 cycles
  m.tcd.num_hashes = 2;
  m.tcd.slots_per_hash = 16;
  m.tcd.scrub_interval = 4;
  m.si_versions = 3;  // fewer than the warps in a transaction: publications wait
  m.wt.sets = 128;    // 384 writers and 8192 reader entries for 128 lanes in transactions
  m.rl.sets = 2048;   // a warp of Vacation2 reads about 100 words per lane
  return m;
}

}  // namespace

const std::vector<MachineConfig>& AllMachines() {
  static const std::vector<MachineConfig> all = {Paper(), Small()};
  return all;
}

const MachineConfig* FindMachine(const std::string& name) {
  for (const MachineConfig& m : AllMachines()) {
    if (m.name == name) {
      return &m;
    }
  }
  return nullptr;
}

std::string CheckMachine(const MachineConfig& m) {
  if (m.cores < 1 || m.warps_per_core < 1 || m.tx_warps_per_core < 1 || m.partitions < 1) {
    return "cores, warps per core, transactional warps per core and partitions must be >= 1";
  }
  if (m.cores > (1 << std::min(m.cu.src_w, 20))) {
    return "more cores than the commit unit's SrcW can name";
  }
  if (m.icnt_latency < 1 || m.mem_latency < 1 || m.cu_mem_latency < 1 || m.alloc_retry < 1) {
    return "latencies must be >= 1";
  }
  if (m.si_versions < 2) {
    return "snapshot isolation needs at least 2 versions (one read, one written)";
  }
  if (std::string err = golden::CheckWriterTableParams(m.wt); !err.empty()) {
    return "Writer Table: " + err;
  }
  if (std::string err = golden::CheckReaderListTableParams(m.rl); !err.empty()) {
    return "Reader List: " + err;
  }
  if (std::string err = golden::CheckPostdateParams(m.pd); !err.empty()) {
    return "post-dating unit: " + err;
  }
  if (m.rl.num_tx != m.pd.num_tx || m.pd.num_tx > (1 << std::min(m.wt.tx_w, 20)) ||
      m.wt.addr_w != m.rl.addr_w) {
    return "the Writer Table, the Reader List and the post-dating unit must name the same "
           "transaction ids (NumTx, TxW) and addresses (AddrW)";
  }
  if (m.line_words < 1 || m.interleave_words < 1 || m.max_tx_ops < 1) {
    return "line and interleave sizes and the try budget must be >= 1";
  }
  if (m.cu.data_w != 32) {
    return "the commit unit's DataW must be 32 (the memory's word)";
  }
  if (m.iwcd.warp_size != 32) {
    return "the intra-warp conflict detection's WarpSize must be 32 (the warp)";
  }
  if (std::string err = golden::CheckIntraWarpCdParams(m.iwcd); !err.empty()) {
    return "intra-warp conflict detection: " + err;
  }
  if (std::string err = golden::CheckRctParams(m.rct); !err.empty()) {
    return "RCT: " + err;
  }
  if (std::string err = golden::CheckCatParams(m.cat); !err.empty()) {
    return "CAT: " + err;
  }
  if (m.cat.warp_size != 32 || m.cat.batch != m.rct.batch || m.cat.addr_w != m.rct.addr_w ||
      m.iwcd.addr_w != m.cat.addr_w) {
    return "the CAT must take 32-lane warps and the RCT's messages (the same Batch and AddrW), "
           "and look up the intra-warp detection's addresses (the same AddrW)";
  }
  if (std::string err = golden::CheckTcdParams(m.tcd); !err.empty()) {
    return "temporal conflict detection: " + err;
  }
  if (std::string err = golden::CheckPagCheckParams(m.pag); !err.empty()) {
    return "Pause-and-Go check: " + err;
  }
  if (m.pag.warp_size != 32 || m.pag.addr_w != m.cat.addr_w) {
    return "the Pause-and-Go check must take 32-lane warps and the CAT's addresses (the same "
           "AddrW)";
  }
  return golden::CheckCommitUnitParams(m.cu);
}

namespace {

using golden::CommitUnitIn;
using golden::CommitUnitModel;
using golden::CommitUnitOut;
using golden::IntraWarpCdIn;
using golden::IntraWarpCdModel;
using golden::IntraWarpCdOut;
using golden::LowMask;

/// The entry of `log` (address, value pairs) for address a, or nullptr.
template <class Log>
auto* FindLog(Log& log, uint32_t a) {
  const auto it = std::find_if(log.begin(), log.end(), [a](const auto& x) { return x.first == a; });
  return it == log.end() ? nullptr : &*it;
}

/// Items numbered by commit id, added in any order and released in commit-id order: an item is
/// released once every older commit id has been added.
template <class T>
class InCidOrder {
 public:
  /// Adds the item of commit id `cid`; calls release(item) for it and every later item now in
  /// order.
  template <class Release>
  void Add(uint64_t cid, T item, Release&& release) {
    pending_[cid] = std::move(item);
    while (!pending_.empty() && pending_.begin()->first == next_) {
      auto node = pending_.extract(pending_.begin());
      ++next_;
      release(std::move(node.mapped()));
    }
  }
  /// The oldest commit id not yet added.
  uint64_t next() const { return next_; }
  /// The oldest commit id added but held back by a missing older one, if any.
  std::optional<uint64_t> held() const {
    return pending_.empty() ? std::nullopt : std::optional<uint64_t>(pending_.begin()->first);
  }

 private:
  std::map<uint64_t, T> pending_;
  uint64_t next_ = 0;
};

/// Replays the serialization order as it is produced: checks every committed read against the
/// replayed memory, names each read's writer, and hands the events to the log sink.
class Serializer {
 public:
  Serializer(const std::vector<uint32_t>& initial, LogSink* sink)
      : mem_(initial), writer_(initial.size(), -1), sink_(sink) {
    if (sink_ != nullptr) {
      sink_->Begin(initial);
    }
  }
  /// A decided transaction with its commit id (recorded in any order; replayed in cid order).
  /// Aborted ones only fill the gap in the cid sequence.
  void Decided(uint64_t cid, bool committed, LogEvent e) {
    e.kind = LogEvent::Kind::kTx;
    e.cid = cid;
    pending_.Add(cid, {committed, std::move(e)}, [this](std::pair<bool, LogEvent> x) {
      if (gated_) {
        ready_.push_back({true, x.first, std::move(x.second)});
      } else if (x.first) {
        Emit(std::move(x.second));
      }
    });
    Drain();
  }
  /// WarpTM's temporal conflict detection: transactions are replayed only once every commit id
  /// below `upto` (Advance) may be; a read-only transaction committed at a core is placed just
  /// before commit id `cid` (Before). Non-transactional writes keep their place behind the
  /// transactions decided before them.
  void Gate() { gated_ = true; }
  void Advance(uint64_t upto) {
    gate_ = upto;
    Drain();
  }
  void Before(uint64_t cid, LogEvent e) {
    e.kind = LogEvent::Kind::kTx;
    e.cid = cid;
    before_.emplace(cid, std::move(e));
  }
  /// A non-transactional write, at the time it is performed.
  void Write(int thread, uint64_t cycle, uint32_t addr, uint32_t value, bool atomic, uint32_t old) {
    LogEvent e;
    e.kind = LogEvent::Kind::kWrite;
    e.thread = thread;
    e.cycle = cycle;
    if (atomic) {
      e.reads.push_back({addr, old, 0});
    }
    e.writes.push_back({addr, value});
    if (!ready_.empty()) {
      ready_.push_back({false, true, std::move(e)});
      return;
    }
    Emit(std::move(e));
  }
  bool Finish(const std::vector<uint32_t>& hw) {
    gate_ = UINT64_MAX;
    Drain();
    for (auto& [cid, e] : before_) {  // placed after every commit id decided
      Emit(std::move(e));
    }
    before_.clear();
    if (pending_.held() && error_.empty()) {
      error_ =
          "commit id " + std::to_string(*pending_.held()) + " decided while an older one never was";
    }
    if (error_.empty()) {
      for (size_t a = 0; a < hw.size(); ++a) {
        if (hw[a] != mem_[a]) {
          error_ = "final memory: word " + std::to_string(a) + " holds " + std::to_string(hw[a]) +
                   ", the serial replay gives " + std::to_string(mem_[a]) + " (last written by " +
                   Who(writer_[a]) + ")";
          break;
        }
      }
    }
    if (sink_ != nullptr) {
      sink_->End(hw);
    }
    return error_.empty();
  }
  const std::string& error() const { return error_; }
  uint64_t events() const { return next_id_; }
  /// Snapshot isolation: the next event of a serialization order found elsewhere (the
  /// dependency graph's), each read naming the event whose write it saw (-1: initial memory).
  void Replay(LogEvent e) { Emit(std::move(e), true); }

 private:
  std::string Who(int64_t id) const {
    if (id < 0) {
      return "the initial memory";
    }
    const auto it = who_.find(id);
    return "event " + std::to_string(id) + (it == who_.end() ? "" : " (" + it->second + ")");
  }
  /// Replays the ready events up to the gate.
  void Drain() {
    while (!ready_.empty()) {
      Ready& r = ready_.front();
      if (r.tx) {
        if (r.e.cid >= gate_) {
          return;
        }
        for (auto it = before_.begin(); it != before_.end() && it->first <= r.e.cid;) {
          Emit(std::move(it->second));
          it = before_.erase(it);
        }
      }
      if (r.committed) {
        Emit(std::move(r.e));
      }
      ready_.pop_front();
    }
  }
  void Emit(LogEvent e, bool writers_given = false) {
    e.id = next_id_++;
    const std::string me =
        (e.kind == LogEvent::Kind::kTx ? "transaction of thread " + std::to_string(e.thread) +
                                             ", commit id " + std::to_string(e.cid)
                                       : "write of thread " + std::to_string(e.thread)) +
        " at cycle " + std::to_string(e.cycle);
    for (LogEvent::Read& r : e.reads) {
      if (writers_given && r.writer != writer_[r.addr] && error_.empty()) {
        error_ = "serializability: event " + std::to_string(e.id) + " (" + me + ") read word " +
                 std::to_string(r.addr) + " from " + Who(r.writer) +
                 ", but in the serial order its latest writer is " + Who(writer_[r.addr]);
      }
      r.writer = writer_[r.addr];
      if (mem_[r.addr] != r.value && error_.empty()) {
        error_ = "serializability: event " + std::to_string(e.id) + " (" + me + ") read word " +
                 std::to_string(r.addr) + " = " + std::to_string(r.value) +
                 ", but in the serial order it holds " + std::to_string(mem_[r.addr]) +
                 " (written by " + Who(writer_[r.addr]) + ")";
      }
    }
    for (const auto& [a, v] : e.writes) {
      mem_[a] = v;
      writer_[a] = static_cast<int64_t>(e.id);
    }
    if (e.kind == LogEvent::Kind::kTx && e.writes.size() < 64) {
      who_[e.id] = me;  // names for messages (bounded: most recent writers matter)
    }
    if (sink_ != nullptr) {
      sink_->Event(e);
    }
  }

  std::vector<uint32_t> mem_;
  std::vector<int64_t> writer_;
  LogSink* sink_;
  InCidOrder<std::pair<bool, LogEvent>> pending_;
  // Gated replay (temporal conflict detection): events in order, waiting for the gate.
  struct Ready {
    bool tx, committed;
    LogEvent e;
  };
  bool gated_ = false;
  uint64_t gate_ = 0;
  std::deque<Ready> ready_;
  std::multimap<uint64_t, LogEvent> before_;  // read-only transactions, by the cid they precede
  std::unordered_map<uint64_t, std::string> who_;
  uint64_t next_id_ = 0;
  std::string error_;
};

// ---- The machine --------------------------------------------------------------------------------

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
  std::vector<std::pair<uint32_t, uint32_t>> reads;   // first read of each address
  std::vector<std::pair<uint32_t, uint32_t>> writes;  // latest value per address
  uint32_t result = 0;  // the value the pending load or atomic returns
};

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

struct Core {
  std::vector<int> resident;
  std::deque<int> waiting;  // warps not yet launched
  size_t rr = 0;
  int tx_warps = 0;
};

/// WarpTM: a core's early-conflict-resolution blocks (the intra-warp conflict detection; with
/// Early-Abort or Pause-and-Go, the CAT; with Pause-and-Go, the check) and the warps waiting
/// for them.
struct EcrPort {
  std::unique_ptr<EcrCore> ecr;
  bool cat_ready = false;    // the CAT has cleared its table
  uint64_t cat_pending = 0;  // deltas the CAT took and has not applied
  // Pause-and-Go: warps whose transactional access waits for the check, the one being checked.
  std::deque<int> pag_queue;
  int pag_warp = -1;
  golden::PagCheckIn pag_in;  // its request (req_valid until the check takes it)
  uint64_t pag_start = 0;
  std::deque<int> queue;  // warps whose logs wait to be checked
  int warp = -1;          // the warp being checked
  std::vector<IntraWarpCdIn> cmds;
  size_t next = 0;  // the command presented now
  uint64_t start = 0;
};

/// WarpTM: a core's temporal conflict detection. Its copy of the last-written-time table (the
/// golden htm_tcd) records every word written to memory, broadcast from the partitions with the
/// interconnect's latency; the retirements of commit ids come the same way, behind the writes
/// of the transactions they retire. A warp's read-only lanes wait until every commit id
/// allocated before their commit has retired; then each read-log row is looked up (one lookup
/// per chunk in the row, one a cycle), and a lane none of whose chunks was written since its
/// first read commits here, serialized just before the oldest commit id not yet retired.
struct TcdPort {
  std::unique_ptr<golden::TcdModel> table;
  uint64_t ticked = 0;  // the table has run every cycle before this one
  struct Item {
    uint64_t at;  // arrival
    bool retire;  // a commit id retired, else a word written
    uint64_t v;   // the commit id or the word address
  };
  std::deque<Item> in;
  InCidOrder<char> retired;  // next(): the oldest commit id not known to be retired
  std::deque<int> queue;     // warps whose read-only lanes wait
  int warp = -1;             // the warp being looked up
  uint64_t before = 0;       // its lanes are serialized before this commit id
  struct Check {
    uint32_t addr;
    uint64_t since;  // the earliest first read of the lanes
    uint64_t lanes;
    bool conflict = false;
  };
  std::vector<Check> checks;
  size_t next = 0, answered = 0;
  int res = -1;  // the check answered next cycle
  uint64_t start = 0;
};

struct Event {
  uint64_t time, seq;
  std::function<void()> fn;
  bool operator>(const Event& o) const { return time != o.time ? time > o.time : seq > o.seq; }
};

class Machine {
 public:
  Machine(const MachineConfig& m, TmMode tm, Workload& w, const RunOptions& opt)
      : m_(m), tm_(tm), w_(w), opt_(opt) {}

  RunResult Run() {
    RunResult r;
    try {
      RunInner();
    } catch (const std::exception& e) {
      Fail(std::string("thread ") + std::to_string(current_) + " threw: " + e.what());
    }
    r.stats = stats_;
    r.stats.cycles = now_;
    r.stats.threads = static_cast<uint64_t>(w_.threads());
    r.mem = mem_;
    for (const CommitUnitModel& u : units_) {
      r.unit_stats.push_back(u.stats());
    }
    if (error_.empty() && graph_) {
      SiReplay();
    }
    if (error_.empty() && serial_ && !serial_->Finish(mem_)) {
      Fail(serial_->error());
    }
    r.stats.si_graph_edges = graph_ ? graph_->edges() : 0;
    r.stats.log_events = serial_ ? serial_->events() : 0;
    // Early-Abort: entries the tables still hold (every transaction has retired).
    for (const golden::RctModel& t : rcts_) {
      r.stats.ea_left += t.Eval(golden::RctIn{}).used;
    }
    for (const EcrPort& p : ecr_) {
      r.stats.ea_left += p.ecr->has_cat() ? p.ecr->cat().Eval(golden::CatIn{}).used : 0;
    }
    if (error_.empty()) {
      r.check = w_.Check(mem_);
    }
    r.error = error_;
    r.ok = error_.empty() && r.check.empty();
    return r;
  }

 private:
  // ---- Setup and the main loop ------------------------------------------------------------------
  void RunInner() {
    mem_ = w_.Init();
    serial_ = std::make_unique<Serializer>(mem_, opt_.log);
    if (Si()) {
      smem_ = std::make_unique<SnapshotMemory>(mem_, m_.si_versions);
      graph_ = std::make_unique<SiGraph>();
    }
    if (Ts()) {
      wt_ = std::make_unique<golden::WriterTableModel>(m_.wt);
      rl_ = std::make_unique<golden::ReaderListTable>(m_.rl);
      pd_ = std::make_unique<golden::PostdateTable>(m_.pd);
      for (int id = m_.pd.num_tx - 1; id >= 0; --id) {
        free_ids_.push_back(id);
      }
    }
    const int threads = w_.threads();
    if (threads < 1 || threads % 32 != 0) {
      Fail("the workload has " + std::to_string(threads) + " threads, not a multiple of 32");
      return;
    }
    threads_.resize(threads);
    warps_ = std::vector<Warp>(static_cast<size_t>(threads / 32));
    cores_.resize(m_.cores);
    slot_waiters_.resize(m_.cores);
    for (size_t wi = 0; wi < warps_.size(); ++wi) {
      warps_[wi].core = static_cast<int>(wi % m_.cores);
      warps_[wi].first = static_cast<int>(wi) * 32;
      cores_[warps_[wi].core].waiting.push_back(static_cast<int>(wi));
    }
    for (int c = 0; c < m_.cores; ++c) {
      Launch(c);
    }
    for (int u = 0; u < m_.partitions; ++u) {
      units_.emplace_back(m_.cu);
    }
    if (Iwcd()) {
      ecr_.resize(m_.cores);
      for (EcrPort& p : ecr_) {
        p.ecr =
            std::make_unique<EcrCore>(m_.iwcd, Cat() ? &m_.cat : nullptr, Pg() ? &m_.pag : nullptr);
      }
    }
    if (Cat()) {
      for (int u = 0; u < m_.partitions; ++u) {
        rcts_.emplace_back(m_.rct);
      }
      rct_pending_.assign(m_.partitions, 0);
      cat_chan_ = std::make_unique<CatChannel>(m_.cores, m_.icnt_latency);
    }
    if (Tcd()) {
      tcd_.resize(m_.cores);
      for (TcdPort& p : tcd_) {
        p.table = std::make_unique<golden::TcdModel>(m_.tcd);
      }
      serial_->Gate();
    }
    cu_in_.resize(m_.partitions);
    vr_.resize(m_.partitions);
    cw_.resize(m_.partitions);
    part_free_.assign(m_.partitions, 0);
    link_free_.assign(static_cast<size_t>(m_.cores) * m_.partitions, 0);
    const uint64_t limit = opt_.max_cycles != 0 ? opt_.max_cycles : 200'000'000;
    uint64_t last_progress = 0;
    while (error_.empty() && (done_threads_ < threads || !Quiet())) {
      if (now_ >= limit) {
        Fail("no end after " + std::to_string(limit) + " cycles (deadlock or livelock?); " +
             Summary());
        return;
      }
      RunEvents();
      if (!serial_->error().empty()) {
        Fail(serial_->error());
        return;
      }
      bool active = false;
      for (int c = 0; c < m_.cores && error_.empty(); ++c) {
        active |= IssueCore(c);
        active |= StepCore(c);
        active |= SendCommitMessages(c);
        active |= StepTcd(c);
      }
      if (now_ % 2 == 0) {
        for (int u = 0; u < m_.partitions && error_.empty(); ++u) {
          active |= TickUnit(u);
        }
      }
      if (opt_.progress && now_ - last_progress >= 100000) {
        last_progress = now_;
        opt_.progress(now_, static_cast<uint64_t>(done_threads_), static_cast<uint64_t>(threads));
      }
      ++now_;
      if (!active && opt_.skip_idle) {
        SkipIdle();
      }
    }
  }

  void Launch(int c) {
    Core& core = cores_[c];
    while (static_cast<int>(core.resident.size()) < m_.warps_per_core && !core.waiting.empty()) {
      const int wi = core.waiting.front();
      core.waiting.pop_front();
      core.resident.push_back(wi);
      Warp& w = warps_[wi];
      w.launched = true;
      w.ready_at = now_ + 1;
      for (int t = w.first; t < w.first + 32; ++t) {
        current_ = t;
        threads_[t].lane = std::make_unique<Lane>(t, 32, w_.threads());
        Lane& lane = *threads_[t].lane;
        lane.Start(tm_ == TmMode::kFgl ? w_.LockKernel(lane) : w_.Kernel(lane));
        Settle(t);
      }
    }
  }

  void Settle(int t) {
    Thread& th = threads_[t];
    if (!th.done && th.lane->op().kind == OpKind::kDone) {
      th.done = true;
      ++done_threads_;
    }
  }

  bool Quiet() const { return events_.empty() && !Working(); }

  /// A commit unit, an RCT, an intra-warp detection or a CAT has work this cycle.
  bool Working() const {
    for (int u = 0; u < m_.partitions; ++u) {
      if (!cu_in_[u].empty() || !vr_[u].empty() || !cw_[u].empty() || unit_working_[u]) {
        return true;
      }
    }
    for (size_t c = 0; c < ecr_.size(); ++c) {
      const EcrPort& p = ecr_[c];
      if (p.warp >= 0 || !p.queue.empty() || p.pag_warp >= 0 || !p.pag_queue.empty() ||
          (p.ecr->has_cat() && CatActive(static_cast<int>(c)))) {
        return true;
      }
    }
    for (size_t u = 0; u < rcts_.size(); ++u) {
      if (rct_pending_[u] > 0 || rct_working_[u]) {
        return true;
      }
    }
    for (const TcdPort& p : tcd_) {
      if (p.warp >= 0 || p.res >= 0 || TcdTurn(p)) {
        return true;
      }
    }
    return false;
  }

  /// Nothing happened this cycle: jump to the next event or the next warp that becomes ready.
  void SkipIdle() {
    uint64_t next = UINT64_MAX;
    if (!events_.empty()) {
      next = events_.top().time;
    }
    for (size_t c = 0; c < cores_.size(); ++c) {
      for (const int wi : cores_[c].resident) {
        const Warp& w = warps_[wi];
        if (!w.finished && !w.blocked && w.pending == 0 && !w.committing && !w.pag_wait) {
          next = std::min(next, std::max(w.ready_at, now_));
        }
        // A log walker's next message: an Alloc waiting to be retried, or a message waiting for
        // the link, which memory requests may have booked ahead.
        for (const auto& cm : w.committers) {
          for (int u = 0; u < m_.partitions; ++u) {
            const Committer::Link& l = cm->links[u];
            if (l.need_alloc && !l.alloc_wait) {
              next = std::min(next, std::max(l.retry_at, now_));
            }
            if (Wants(*cm, u) != nullptr) {
              next = std::min(next, std::max(link_free_[c * m_.partitions + u], now_));
            }
          }
        }
      }
    }
    for (const TcdPort& p : tcd_) {
      if (!p.in.empty()) {
        next = std::min(next, std::max(p.in.front().at, now_));
      }
      if (p.warp < 0 && !p.queue.empty()) {
        next = std::min(next, std::max(TcdStale(warps_[p.queue.front()]), now_));
      }
    }
    if (Working()) {
      next = now_;
    }
    if (next != UINT64_MAX && next > now_) {
      now_ = next;
    }
  }

  void At(uint64_t time, std::function<void()> fn) {
    events_.push(Event{time, seq_++, std::move(fn)});
  }
  void RunEvents() {
    while (!events_.empty() && events_.top().time <= now_ && error_.empty()) {
      Event e = events_.top();
      events_.pop();
      e.fn();
    }
  }

  void Fail(const std::string& what) {
    if (error_.empty()) {
      error_ = "cycle " + std::to_string(now_) + ": " + what;
    }
  }

  std::string Describe(int t) const {
    const Op& op = threads_[t].lane->op();
    std::ostringstream os;
    os << "thread " << t << " (warp " << t / 32 << ") at " << OpKindName(op.kind);
    if (IsMemAccess(op.kind)) {
      os << " of word " << op.addr;
    }
    if (op.kind != OpKind::kDone) {
      os << " at line " << PcText(op.pc);
    }
    return os.str();
  }

  std::string Summary() const {
    std::ostringstream os;
    os << done_threads_ << " of " << threads_.size() << " threads finished";
    int shown = 0;
    for (size_t t = 0; t < threads_.size() && shown < 3; ++t) {
      if (threads_[t].lane && !threads_[t].done) {
        os << (shown++ ? "; " : "; e.g. ") << Describe(static_cast<int>(t));
      }
    }
    return os.str();
  }

  // ---- Memory path ------------------------------------------------------------------------------
  int PartitionOf(uint32_t addr) const {
    return static_cast<int>((addr / static_cast<uint32_t>(m_.interleave_words)) %
                            static_cast<uint32_t>(m_.partitions));
  }

  /// Sends a request from core c to partition p now: returns the cycle at which the partition
  /// performs it (after the link's slot, the interconnect, the partition's slot and the memory).
  uint64_t Route(int c, int p, int latency) {
    uint64_t& link = link_free_[static_cast<size_t>(c) * m_.partitions + p];
    const uint64_t sent = std::max(now_, link);
    link = sent + 1;
    const uint64_t arrive = sent + static_cast<uint64_t>(m_.icnt_latency);
    const uint64_t served = std::max(arrive, part_free_[p]);
    part_free_[p] = served + 1;
    ++stats_.mem_requests;
    return served + static_cast<uint64_t>(latency);
  }

  /// Groups the threads' addresses into line requests: (partition, the threads of that line).
  std::map<uint32_t, std::vector<int>> Lines(const std::vector<int>& ts) const {
    std::map<uint32_t, std::vector<int>> lines;
    for (const int t : ts) {
      lines[threads_[t].lane->op().addr / static_cast<uint32_t>(m_.line_words)].push_back(t);
    }
    return lines;
  }

  bool InMemory(uint32_t addr) const { return addr < mem_.size(); }

  // ---- Issue ------------------------------------------------------------------------------------
  /// The warp scheduler of core c: one instruction from the next ready warp.
  bool IssueCore(int c) {
    Core& core = cores_[c];
    const size_t n = core.resident.size();
    for (size_t k = 0; k < n; ++k) {
      const size_t i = (core.rr + k) % n;
      Warp& w = warps_[core.resident[i]];
      if (w.finished || w.blocked || w.pending > 0 || w.committing || w.pag_wait ||
          w.ready_at > now_) {
        continue;
      }
      const int r = Issue(core.resident[i]);
      if (r == 0) {
        continue;  // nothing to issue (stalled)
      }
      core.rr = (i + 1) % n;
      if (r == 2) {  // the warp finished: make room for the next
        core.resident.erase(core.resident.begin() + static_cast<std::ptrdiff_t>(i));
        Launch(c);
        core.rr = core.resident.empty() ? 0 : core.rr % core.resident.size();
      }
      return true;
    }
    return false;
  }

  /// The threads the warp issues next: in a transaction, the threads of the try still in the
  /// body (none: the try is complete); else every unfinished thread; of those, the ones at the
  /// lowest program point.
  std::vector<int> Group(Warp& w) const {
    std::vector<int> cand;
    if (w.in_tx) {
      if (tm_ == TmMode::kSerial) {
        if (w.serial_active >= 0 &&
            threads_[w.serial_active].lane->op().kind != OpKind::kTxCommit) {
          cand.push_back(w.serial_active);
        }
      } else {
        for (const int t : w.tx) {
          const Thread& th = threads_[t];
          if (!th.doomed && th.lane->op().kind != OpKind::kTxCommit) {
            cand.push_back(t);
          }
        }
      }
    } else {
      for (int t = w.first; t < w.first + 32; ++t) {
        if (!threads_[t].done) {
          cand.push_back(t);
        }
      }
    }
    uint64_t best = UINT64_MAX;
    for (const int t : cand) {
      const Op& op = threads_[t].lane->op();
      best = std::min(best, (uint64_t{op.pc} << 8) | static_cast<uint64_t>(op.kind));
    }
    std::vector<int> group;
    for (const int t : cand) {
      const Op& op = threads_[t].lane->op();
      if (((uint64_t{op.pc} << 8) | static_cast<uint64_t>(op.kind)) == best) {
        group.push_back(t);
      }
    }
    return group;
  }

  /// Issues warp wi's next instruction: 0 nothing issued, 1 issued, 2 the warp finished.
  int Issue(int wi) {
    Warp& w = warps_[wi];
    std::vector<int> g = Group(w);
    if (g.empty()) {
      if (w.in_tx) {
        if (tm_ == TmMode::kSerial) {
          return SerialNext(wi) ? 1 : 0;
        }
        StartCommit(wi);
        return 1;
      }
      w.finished = true;
      return 2;
    }
    const Op op = threads_[g[0]].lane->op();
    ++stats_.warp_instructions;
    if (w.in_tx) {
      for (const int t : g) {
        if (++threads_[t].tx_ops > m_.max_tx_ops) {
          if (tm_ == TmMode::kSerial) {  // alone, so not a zombie: an endless body
            Fail(Describe(t) + ": the transaction body begun at line " +
                 PcText(threads_[t].lane->tx_pc()) + " has not finished after " +
                 std::to_string(m_.max_tx_ops) + " operations");
            return 1;
          }
          Doom(t);
        }
      }
      g = Live(g);
      if (g.empty()) {
        w.ready_at = now_ + 1;
        return 1;
      }
      if (op.kind == OpKind::kBarrier || op.kind == OpKind::kAtomAdd ||
          op.kind == OpKind::kAtomCas || op.kind == OpKind::kTxBegin || op.kind == OpKind::kFence) {
        Fail(Describe(g[0]) + ": a " + OpKindName(op.kind) +
             " inside a transaction body (bodies hold no barrier, atomic, fence or transaction)");
        return 1;
      }
    }
    switch (op.kind) {
      case OpKind::kCompute:
        ResumeAll(g);
        w.ready_at = now_ + static_cast<uint64_t>(std::max(1, op.count));
        return 1;
      case OpKind::kLatch:
        ResumeAll(g);
        w.ready_at = now_ + 1;
        return 1;
      case OpKind::kFence:
        if (w.stores_out > 0) {
          return 0;  // the warp's earlier stores are not all performed yet
        }
        ResumeAll(g);
        w.ready_at = now_ + 1;
        return 1;
      case OpKind::kLoad:
      case OpKind::kStore:
        return w.in_tx ? TxAccess(wi, g) : MemAccess(wi, g, false);
      case OpKind::kAtomAdd:
      case OpKind::kAtomCas:
        return MemAccess(wi, g, true);
      case OpKind::kBarrier:
        Fail(Describe(g[0]) + ": the system model has no grid-wide barrier");
        return 1;
      case OpKind::kTxBegin:
        return TxBegin(wi, g);
      case OpKind::kTxCommit:
      case OpKind::kDone:
      case OpKind::kNone:
        Fail(Describe(g[0]) + ": nothing to issue");
        return 1;
    }
    return 1;
  }

  /// The threads of g that are not zombies.
  std::vector<int> Live(const std::vector<int>& g) const {
    std::vector<int> live;
    for (const int t : g) {
      if (!threads_[t].doomed) {
        live.push_back(t);
      }
    }
    return live;
  }

  /// The thread's try as an event of the serialization order (writers are named by the replay).
  LogEvent TxEvent(int t) const {
    const Thread& th = threads_[t];
    LogEvent e;
    e.thread = t;
    e.cycle = now_;
    for (const auto& [a, v] : th.reads) {
      e.reads.push_back({a, v, 0});
    }
    e.writes = th.writes;
    return e;
  }

  void ResumeAll(const std::vector<int>& g) {
    for (const int t : g) {
      current_ = t;
      threads_[t].lane->Resume(threads_[t].result);
      Settle(t);
    }
  }

  /// The group's replies are all in: resume its threads.
  void Complete(int wi) {
    Warp& w = warps_[wi];
    if (--w.pending == 0) {
      std::vector<int> g = std::move(w.group);
      w.group.clear();
      ResumeAll(g);
      w.ready_at = std::max(w.ready_at, now_ + 1);
    }
  }

  /// A load, store or atomic outside a transaction (or a serial transaction's access): one
  /// request per line; loads and atomics resume the group when every reply is back, stores at
  /// once (a serial transaction's store waits for its acknowledgement).
  int MemAccess(int wi, const std::vector<int>& g, bool atomic) {
    Warp& w = warps_[wi];
    const Op op0 = threads_[g[0]].lane->op();
    for (const int t : g) {
      if (!InMemory(threads_[t].lane->op().addr)) {
        Fail(Describe(t) + ": address outside the memory of " + std::to_string(mem_.size()) +
             " words");
        return 1;
      }
    }
    const bool store = op0.kind == OpKind::kStore;
    const bool wait = !store || w.in_tx;
    auto lines = Lines(g);
    if (wait) {
      w.pending = static_cast<int>(lines.size());
      w.group = g;
    }
    for (auto& [line, ts] : lines) {
      const int p = PartitionOf(line * static_cast<uint32_t>(m_.line_words));
      const uint64_t when = Route(w.core, p, m_.mem_latency);
      if (store) {
        w.stores_out += wait ? 0 : 1;
      }
      // The operations as issued: a store that does not wait has moved its thread on by the
      // time the partition performs it.
      std::vector<Op> ops;
      for (const int t : ts) {
        ops.push_back(threads_[t].lane->op());
      }
      At(when, [this, wi, ts = std::move(ts), ops = std::move(ops), store, wait, atomic] {
        for (size_t i = 0; i < ts.size(); ++i) {
          const int t = ts[i];
          Thread& th = threads_[t];
          const Op& op = ops[i];
          const uint32_t old = mem_[op.addr];
          th.result = old;
          if (store) {
            mem_[op.addr] = op.data;
            if (warps_[wi].in_tx) {
              th.writes.push_back({op.addr, op.data});  // serial mode: logged at its commit
            } else {
              NonTxWrite(t, op.addr, op.data, false, 0);
            }
          } else if (atomic) {
            const bool add = op.kind == OpKind::kAtomAdd;
            if (add || old == op.cmp) {
              mem_[op.addr] = add ? old + op.data : op.data;
              NonTxWrite(t, op.addr, mem_[op.addr], true, old);
            }
          } else if (warps_[wi].in_tx) {
            if (!FindLog(th.writes, op.addr) && !FindLog(th.reads, op.addr)) {
              th.reads.push_back({op.addr, old});
            }
          }
        }
        if (wait) {
          At(now_ + static_cast<uint64_t>(m_.icnt_latency), [this, wi] { Complete(wi); });
        } else {
          --warps_[wi].stores_out;
        }
      });
    }
    if (!wait) {
      ResumeAll(g);
      w.ready_at = now_ + 1;
    }
    return 1;
  }

  /// A non-transactional store or atomic, performed now. Snapshot isolation: a node of the
  /// dependency graph and a version of the newest snapshot (such writes are ordered after the
  /// commit ids given out so far; the replay flags one that races with a transaction's commit).
  void NonTxWrite(int t, uint32_t addr, uint32_t value, bool atomic, uint32_t old) {
    if (Tcd()) {
      TcdBroadcast(false, addr);
    }
    if (!Si()) {
      serial_->Write(t, now_, addr, value, atomic, old);
      return;
    }
    LogEvent e;
    e.kind = LogEvent::Kind::kWrite;
    e.thread = t;
    e.cycle = now_;
    WordLog reads, writes = {{addr, value}};
    std::vector<int64_t> seen;
    if (atomic) {
      reads.push_back({addr, old});
      seen.push_back(smem_->At(addr, UINT64_MAX).node);
      e.reads.push_back({addr, old, 0});
    }
    e.writes = writes;
    const SiGraph::Candidate c{{next_cid_, ++si_write_seq_}, &reads, &seen, &writes};
    smem_->WriteNow(addr, value, graph_->Add(c, std::move(e)));
  }

  // ---- Transactions -----------------------------------------------------------------------------
  void Doom(int t) {
    Thread& th = threads_[t];
    if (!th.doomed) {
      th.doomed = true;
    }
  }

  int TxBegin(int wi, const std::vector<int>& g) {
    Warp& w = warps_[wi];
    if (tm_ == TmMode::kFgl) {
      Fail(Describe(g[0]) + ": a transaction in the fine-grained-lock kernel");
      return 1;
    }
    if (w.stores_out > 0) {
      return 0;  // the warp's earlier stores are performed before its transaction begins
    }
    Core& core = cores_[w.core];
    if (tm_ == TmMode::kSerial) {
      if (token_ >= 0 && token_ != wi) {
        ++stats_.tx_limit_stalls;
        w.blocked = true;  // woken when the token is released
        token_waiters_.push_back(wi);
        return 0;
      }
      token_ = wi;
      w.in_tx = true;
      w.serial_wait.assign(g.begin(), g.end());
      w.serial_active = -1;
      SerialNext(wi);
      return 1;
    }
    if (!w.holds_slot) {
      if (core.tx_warps >= m_.tx_warps_per_core) {
        ++stats_.tx_limit_stalls;
        w.blocked = true;  // woken when a slot of the core is released
        slot_waiters_[w.core].push_back(wi);
        return 0;
      }
      ++core.tx_warps;
      w.holds_slot = true;
    }
    if (Ts() && si_tx_warps_ > 0 && (si_full_ || si_throttle_)) {
      // SITM: a table was full (§4.3: abort and wait); after a refusal, warps begin one at a
      // time until one commits without a refusal, so some try always completes.
      ++stats_.tx_limit_stalls;
      w.blocked = true;
      si_waiters_.push_back(wi);
      return 0;
    }
    if (Ts()) {
      ++si_tx_warps_;
    }
    w.in_tx = true;
    w.tx = g;
    for (const int t : g) {
      BeginTry(t);
    }
    w.ready_at = now_ + 1;
    return 1;
  }

  void BeginTry(int t) {
    Thread& th = threads_[t];
    th.doomed = false;
    th.iw_abort = Thread::IwAbort::kNo;
    th.si_why = Thread::SiWhy::kNone;
    th.tx_start = now_;
    th.tx_ops = 0;
    th.reads.clear();
    th.writes.clear();
    th.seen.clear();
    if (Si()) {
      th.snap = smem_->newest();
      smem_->Acquire(th.snap);
    }
    if (Ts()) {
      TsBegin(t);
    }
    ++stats_.tries;
    current_ = t;
    th.lane->BeginTry();
  }

  /// Serial mode: the running thread's try is complete (or none runs yet): commit it and start
  /// the next thread of the group; false when the warp still waits for something.
  bool SerialNext(int wi) {
    Warp& w = warps_[wi];
    if (w.serial_active >= 0) {
      const int t = w.serial_active;
      Thread& th = threads_[t];
      if (th.lane->op().kind != OpKind::kTxCommit) {
        return false;
      }
      serial_->Decided(serial_cid_++, true, TxEvent(t));
      ++stats_.commits;
      stats_.tx_cycles += now_ - th.tx_start;
      current_ = t;
      th.lane->CommitTry();
      Settle(t);
      w.serial_active = -1;
    }
    if (w.serial_wait.empty()) {
      w.in_tx = false;
      token_ = -1;
      Wake(token_waiters_);
      w.ready_at = now_ + 1;
      return true;
    }
    w.serial_active = w.serial_wait.front();
    w.serial_wait.pop_front();
    BeginTry(w.serial_active);
    w.ready_at = now_ + 1;
    return true;
  }

  /// A transactional load or store. Pause-and-Go: when the warp has not diverged inside the
  /// transaction (the SIMT stack's top entry is the Trans entry; the authors' simulator skips
  /// the check otherwise), the lanes wait for the core's check, which pauses some of them.
  int TxAccess(int wi, const std::vector<int>& g) {
    Warp& w = warps_[wi];
    if (Pg()) {
      std::vector<int> lanes;
      for (const int t : g) {
        if (InMemory(threads_[t].lane->op().addr)) {
          lanes.push_back(t);
        } else {
          Doom(t);  // as TxLoad and TxStore would
        }
      }
      const auto body = std::count_if(w.tx.begin(), w.tx.end(), [this](int t) {
        return !threads_[t].doomed && threads_[t].lane->op().kind != OpKind::kTxCommit;
      });
      if (!lanes.empty() && static_cast<size_t>(body) == lanes.size()) {
        w.pag_wait = true;
        w.group = std::move(lanes);
        ecr_[w.core].pag_queue.push_back(wi);
        return 1;
      }
    }
    return PerformTxAccess(wi, g);
  }

  /// The access of threads g, whatever it is (they are at the same load or store).
  int PerformTxAccess(int wi, const std::vector<int>& g) {
    return threads_[g[0]].lane->op().kind == OpKind::kStore ? TxStore(wi, g) : TxLoad(wi, g);
  }

  /// Pause-and-Go: the check's request for warp wi's waiting access.
  golden::PagCheckIn PagRequest(int wi) const {
    const Warp& w = warps_[wi];
    golden::PagCheckIn in;
    in.req_valid = 1;
    in.pg_en = 1;
    in.req_write = threads_[w.group[0]].lane->op().kind == OpKind::kStore ? 1 : 0;
    for (const int t : w.group) {
      const auto l = static_cast<size_t>(t - w.first);
      in.req_mask |= uint64_t{1} << l;
      in.req_addr[l] = threads_[t].lane->op().addr & LowMask(m_.pag.addr_w);
    }
    return in;
  }

  /// Pause-and-Go: the check's decision for warp wi. The paused lanes leave the try's top group
  /// and wait, with their logs and their place in the kernel, until the lanes that go on have
  /// committed or aborted (FinishCommit); the others perform the access.
  void Paused(int wi, uint64_t go, uint64_t pause) {
    Warp& w = warps_[wi];
    std::vector<int> g = std::move(w.group);
    w.group.clear();
    w.pag_wait = false;
    std::vector<int> run, held;
    for (const int t : g) {
      const int l = t - w.first;
      ((pause >> l) & 1 ? held : run).push_back(t);
      if (((go >> l) & 1) == ((pause >> l) & 1)) {
        Fail("core " + std::to_string(w.core) + "'s Pause-and-Go check decided lane " +
             std::to_string(l) + " of warp " + std::to_string(wi) + " neither or both ways");
        return;
      }
    }
    if (run.empty()) {
      Fail("core " + std::to_string(w.core) + "'s Pause-and-Go check paused every lane of warp " +
           std::to_string(wi));
      return;
    }
    if (!held.empty()) {
      stats_.pauses += held.size();
      w.tx.erase(std::remove_if(w.tx.begin(), w.tx.end(),
                                [&held](int t) {
                                  return std::find(held.begin(), held.end(), t) != held.end();
                                }),
                 w.tx.end());
      w.paused.push_back(std::move(held));
    }
    PerformTxAccess(wi, run);
  }

  /// KILO TM: a transactional load reads the thread's write log, then its read log, then memory
  /// (logged with the value it returned).
  int TxLoad(int wi, const std::vector<int>& g) {
    if (tm_ == TmMode::kSerial) {
      return MemAccess(wi, g, false);
    }
    Warp& w = warps_[wi];
    std::vector<int> to_mem;
    for (const int t : g) {
      Thread& th = threads_[t];
      const uint32_t a = th.lane->op().addr;
      if (!InMemory(a)) {
        Doom(t);
        continue;
      }
      const auto* hit = FindLog(th.writes, a);
      hit = hit != nullptr ? hit : FindLog(th.reads, a);
      if (hit == nullptr) {
        to_mem.push_back(t);
        continue;
      }
      th.result = hit->second;
    }
    const std::vector<int> live = Live(g);
    if (to_mem.empty()) {
      ResumeAll(live);
      w.ready_at = now_ + 1;
      return 1;
    }
    for (const int t : to_mem) {
      Thread& th = threads_[t];
      th.first_read = th.reads.empty() ? now_ : th.first_read;
    }
    auto lines = Lines(to_mem);
    w.pending = static_cast<int>(lines.size());
    w.group = live;
    for (auto& [line, ts] : lines) {
      const int p = PartitionOf(line * static_cast<uint32_t>(m_.line_words));
      At(Route(w.core, p, m_.mem_latency), [this, wi, ts = std::move(ts)] {
        for (const int t : ts) {
          Thread& th = threads_[t];
          const uint32_t a = th.lane->op().addr;
          if (Si()) {  // the version of the try's snapshot
            const SnapshotMemory::Version v = smem_->At(a, th.snap);
            th.result = v.value;
            th.seen.push_back(v.node);
            if (Ts() && !th.doomed) {
              TsRead(t, a);
            }
          } else {
            th.result = mem_[a];
          }
          th.reads.push_back({a, th.result});
        }
        At(now_ + static_cast<uint64_t>(m_.icnt_latency), [this, wi] { Complete(wi); });
      });
    }
    return 1;
  }

  int TxStore(int wi, const std::vector<int>& g) {
    if (tm_ == TmMode::kSerial) {
      return MemAccess(wi, g, false);
    }
    for (const int t : g) {
      Thread& th = threads_[t];
      const Op& op = th.lane->op();
      if (!InMemory(op.addr)) {
        Doom(t);
        continue;
      }
      if (auto* hit = FindLog(th.writes, op.addr)) {
        hit->second = op.data;
      } else {
        th.writes.push_back({op.addr, op.data});
        if (Ts() && !th.doomed) {  // (an earlier lane of the group may have aborted it)
          TsWrite(t, op.addr);
        }
      }
    }
    ResumeAll(Live(g));
    warps_[wi].ready_at = now_ + 1;
    return 1;
  }

  /// A lane whose try goes to the commit units: not aborted already, and with a log.
  bool Sends(int t) const {
    const Thread& th = threads_[t];
    if (Si()) {  // the write set only: a read-only try commits at the core
      return !th.doomed && !th.writes.empty();
    }
    return !th.doomed && th.iw_abort == Thread::IwAbort::kNo &&
           !(th.reads.empty() && th.writes.empty());
  }

  /// Every thread of the try is at TX_Commit (or a zombie). WarpTM: the warp's logs first go
  /// through the core's intra-warp conflict detection, when two or more lanes send a log.
  void StartCommit(int wi) {
    Warp& w = warps_[wi];
    w.committing = true;
    w.pending = 0;
    if (Iwcd() &&
        std::count_if(w.tx.begin(), w.tx.end(), [this](int t) { return Sends(t); }) >= 2) {
      ecr_[w.core].queue.push_back(wi);
      return;
    }
    SendLogs(wi);
  }

  /// WarpTM and its variants: the intra-warp conflict detection in every warp's commit.
  bool Iwcd() const {
    return tm_ != TmMode::kSerial && tm_ != TmMode::kKiloTm && tm_ != TmMode::kFgl && !Si();
  }
  /// Snapshot isolation: versioned memory, write-write commit, the dependency graph.
  bool Si() const { return IsSi(tm_); }
  /// SITM_TS: the Writer Table, the Reader List and post-dating detect the loops.
  bool Ts() const { return tm_ == TmMode::kSitm; }
  /// WarpTM's temporal conflict detection: read-only lanes may commit at the core.
  bool Tcd() const { return Iwcd() && m_.tcd_on; }
  /// Early-Abort: the intra-warp detection also aborts the lanes that hit the CAT.
  bool EaEn() const { return tm_ == TmMode::kWarpTmEa || tm_ == TmMode::kWarpTmEaPg; }
  /// Pause-and-Go: transactional loads and stores are checked against the CAT.
  bool Pg() const { return tm_ == TmMode::kWarpTmPg || tm_ == TmMode::kWarpTmEaPg; }
  /// Early-Abort or Pause-and-Go: RCTs in the commit units, a CAT in every core.
  bool Cat() const { return EaEn() || Pg(); }

  /// Core c's CAT has work (clearing, a message, deltas, a lookup).
  bool CatActive(int c) const {
    const EcrPort& p = ecr_[c];
    return !p.cat_ready || p.cat_pending > 0 || p.ecr->lookups_in_flight() > 0 ||
           cat_chan_->InFlight(c) > 0;
  }

  /// WarpTM: one cycle of core c's early-conflict-resolution blocks. The intra-warp detection
  /// takes a warp's commands: Begin (its sending lanes), a Mark per write-log row, a Check per
  /// read-log row and per write-log row, and End; row i holds each lane's i-th log entry. The
  /// lanes of the outcome's abort mask are aborted; the others go on to the commit units. With
  /// Early-Abort or Pause-and-Go the CAT takes the RCTs' messages and answers the lookups of
  /// the Pause-and-Go check (first) and of the intra-warp detection (Early-Abort).
  bool StepCore(int c) {
    if (ecr_.empty()) {
      return false;
    }
    EcrPort& p = ecr_[c];
    if (p.warp < 0 && !p.queue.empty()) {
      p.warp = p.queue.front();
      p.queue.pop_front();
      p.cmds = IwcdCommands(p.warp);
      p.next = 0;
      p.start = now_;
    }
    if (p.pag_warp < 0 && !p.pag_queue.empty()) {
      p.pag_warp = p.pag_queue.front();
      p.pag_queue.pop_front();
      p.pag_in = PagRequest(p.pag_warp);
      p.pag_start = now_;
    }
    const bool cat = p.ecr->has_cat() && CatActive(c);
    if (p.warp < 0 && p.pag_warp < 0 && !cat) {
      return false;  // all idle: a cycle would change nothing
    }
    IntraWarpCdIn in;
    if (p.warp >= 0 && p.next < p.cmds.size()) {
      in = p.cmds[p.next];
    }
    in.ea_en = EaEn() ? 1 : 0;
    const bool msg = cat_chan_ && cat_chan_->Ready(c, now_);
    const EcrCore::Step s = p.ecr->Cycle(p.pag_in, in, msg ? &cat_chan_->Front(c) : nullptr);
    if (p.ecr->has_cat()) {
      CountCat(c, s);
    }
    if (s.pag.err || s.iw.err) {
      Fail("core " + std::to_string(c) + "'s " +
           (s.pag.err ? "Pause-and-Go check had a CAT answer it did not ask for"
                      : "intra-warp conflict detection flagged a command out of order"));
      return true;
    }
    if (p.pag_in.req_valid && s.pag.req_ready) {
      p.pag_in.req_valid = 0;
    }
    if (s.pag.res_valid) {
      const int wi = p.pag_warp;
      p.pag_warp = -1;
      ++stats_.pag_checks;
      stats_.pag_cycles += now_ + 1 - p.pag_start;
      Paused(wi, s.pag.res_go, s.pag.res_pause);
    }
    if (in.cmd_valid && s.iw.cmd_ready) {
      ++p.next;
    }
    if (p.warp >= 0 && s.iw.res_valid) {
      const int wi = p.warp;
      p.warp = -1;
      ++stats_.iwcd_warps;
      stats_.iwcd_cycles += now_ + 1 - p.start;
      const int first = warps_[wi].first;
      for (const int t : warps_[wi].tx) {
        const int l = t - first;
        if ((s.iw.res_abort >> l) & 1) {
          threads_[t].iw_abort =
              ((s.iw.res_iw >> l) & 1) ? Thread::IwAbort::kIntraWarp : Thread::IwAbort::kEarly;
        }
      }
      SendLogs(wi);
    }
    return true;
  }

  /// The CAT's side of a core cycle: the message it took, its lookups, answers and deltas.
  void CountCat(int c, const EcrCore::Step& s) {
    EcrPort& p = ecr_[c];
    p.cat_ready = s.cat.ready != 0;
    if (s.lookup != EcrCore::kNone) {
      stats_.cat_lookups += static_cast<uint64_t>(__builtin_popcountll(s.cat_in.lkp_mask));
    }
    if (s.answered != EcrCore::kNone) {
      stats_.cat_hits += static_cast<uint64_t>(__builtin_popcountll(s.cat.rsp_hit));
    }
    if (s.msg_taken) {
      p.cat_pending += s.cat_in.msg_count;
      cat_chan_->Pop(c);
    }
    if (s.cat.dlt_valid) {
      --p.cat_pending;
    }
    stats_.cat_drops += s.cat.drop_full;
  }

  std::vector<IntraWarpCdIn> IwcdCommands(int wi) const {
    const Warp& w = warps_[wi];
    std::vector<IntraWarpCdIn> cmds;
    IntraWarpCdIn begin;
    begin.cmd_valid = 1;
    begin.cmd_op = static_cast<uint64_t>(IwcdOp::kBegin);
    size_t reads = 0, writes = 0;
    for (const int t : w.tx) {
      if (Sends(t)) {
        begin.cmd_mask |= uint64_t{1} << (t - w.first);
        reads = std::max(reads, threads_[t].reads.size());
        writes = std::max(writes, threads_[t].writes.size());
      }
    }
    cmds.push_back(begin);
    // One row: entry i of each sending lane's read (write = false) or write log.
    auto row = [&](IwcdOp op, bool write, size_t i) {
      IntraWarpCdIn r;
      r.cmd_valid = 1;
      r.cmd_op = static_cast<uint64_t>(op);
      r.cmd_write = write ? 1 : 0;
      for (const int t : w.tx) {
        const auto& log = write ? threads_[t].writes : threads_[t].reads;
        if (Sends(t) && i < log.size()) {
          r.cmd_mask |= uint64_t{1} << (t - w.first);
          r.cmd_addr[static_cast<size_t>(t - w.first)] = log[i].first;
        }
      }
      cmds.push_back(r);
    };
    for (size_t i = 0; i < writes; ++i) {
      row(IwcdOp::kMark, true, i);
    }
    for (size_t i = 0; i < reads; ++i) {
      row(IwcdOp::kCheck, false, i);
    }
    for (size_t i = 0; i < writes; ++i) {
      row(IwcdOp::kCheck, true, i);
    }
    IntraWarpCdIn end;
    end.cmd_valid = 1;
    end.cmd_op = static_cast<uint64_t>(IwcdOp::kEnd);
    cmds.push_back(end);
    return cmds;
  }

  /// The log walker: each sending lane gets a commit id (in lane order) and its log is queued
  /// for the commit units; lanes that send nothing are decided at once in FinishCommit. With
  /// WarpTM's temporal conflict detection, read-only lanes go to it first.
  void SendLogs(int wi) {
    Warp& w = warps_[wi];
    const uint64_t need = next_cid_;  // the commit ids allocated before this commit
    for (const int t : w.tx) {
      Thread& th = threads_[t];
      if (!Sends(t)) {
        continue;
      }
      if (Tcd() && th.writes.empty()) {
        ++stats_.tcd_lanes;
        if (now_ < TcdStaleAt(t)) {
          w.tcd_lanes.push_back(t);
          continue;
        }
        ++stats_.tcd_stale;  // the table would call it a conflict
      }
      SendLog(wi, t);
    }
    if (!w.tcd_lanes.empty()) {
      w.tcd_need = need;
      w.tcd_queued = now_;
      ++w.pending;
      tcd_[w.core].queue.push_back(wi);
    }
    if (w.pending == 0) {
      FinishCommit(wi);
    }
  }

  /// Thread t's log goes to the commit units with the next commit id.
  void SendLog(int wi, int t) {
    Warp& w = warps_[wi];
    Thread& th = threads_[t];
    auto cm = std::make_unique<Committer>();
    cm->thread = t;
    cm->warp = wi;
    cm->core = w.core;
    cm->cid = next_cid_++;
    cm->links.resize(m_.partitions);
    std::vector<std::vector<Msg>> words(m_.partitions);
    if (Si()) {
      // Write-write only: each written word is validated against the value its snapshot had,
      // so a unit fails the try when a commit since its snapshot changed the word.
      for (const auto& [a, v] : th.writes) {
        words[PartitionOf(a)].push_back({CuMsg::kReadSet, a, smem_->At(a, th.snap).value});
      }
    }
    for (const auto& [a, v] : Si() ? WordLog{} : th.reads) {
      words[PartitionOf(a)].push_back({CuMsg::kReadSet, a, v});
    }
    for (const auto& [a, v] : th.writes) {
      words[PartitionOf(a)].push_back({CuMsg::kWriteSet, a, v});
      cm->links[PartitionOf(a)].writes = true;
    }
    for (int u = 0; u < m_.partitions; ++u) {
      if (words[u].size() > static_cast<size_t>(m_.cu.buf_words)) {
        Fail(Describe(t) + ": the transaction begun at line " + PcText(th.lane->tx_pc()) +
             " has a log of " + std::to_string(words[u].size()) + " words for commit unit " +
             std::to_string(u) + ", whose buffer holds " + std::to_string(m_.cu.buf_words) +
             " (BufWords): it can never commit");
        return;
      }
      Committer::Link& l = cm->links[u];
      l.involved = !words[u].empty();
      l.q.assign(words[u].begin(), words[u].end());
      l.q.push_back({l.involved ? CuMsg::kDoneFill : CuMsg::kSkip});
    }
    by_cid_[cm->cid & LowMask(m_.cu.cid_w)] = cm.get();
    w.committers.push_back(std::move(cm));
    ++w.pending;
  }

  // ---- WarpTM's temporal conflict detection -----------------------------------------------------
  /// A word written to memory (v: its address) or a commit id retired (v: the id) reaches every
  /// core's table after the interconnect's latency, in the order sent.
  void TcdBroadcast(bool retire, uint64_t v) {
    for (TcdPort& p : tcd_) {
      p.in.push_back({now_ + static_cast<uint64_t>(m_.icnt_latency), retire, v});
    }
  }

  /// The first queued warp may start its lookups: every commit id allocated before its commit
  /// has retired, or its lanes waited so long that their first reads are stale.
  bool TcdTurn(const TcdPort& p) const {
    if (p.warp >= 0 || p.queue.empty()) {
      return false;
    }
    const Warp& w = warps_[p.queue.front()];
    return p.retired.next() >= w.tcd_need || now_ >= TcdStale(w);
  }
  /// When the first read of every one of warp w's waiting lanes is stale (the table would call
  /// it a conflict, and a time older than the table's wrap would alias to a young one).
  uint64_t TcdStale(const Warp& w) const {
    uint64_t last = 0;
    for (const int t : w.tcd_lanes) {
      last = std::max(last, TcdStaleAt(t));
    }
    return last;
  }
  /// When thread t's first read becomes stale for its core's table.
  uint64_t TcdStaleAt(int t) const {
    return threads_[t].first_read + tcd_[warps_[t / 32].core].table->StaleAge();
  }

  /// The lookups of warp wi's read-only lanes: per read-log row, one per chunk.
  std::vector<TcdPort::Check> TcdChecks(int wi) const {
    const Warp& w = warps_[wi];
    const golden::TcdModel& table = *tcd_[w.core].table;
    const uint64_t mask = LowMask(m_.tcd.ts_w);
    std::vector<TcdPort::Check> checks;
    for (size_t i = 0;; ++i) {
      const size_t row = checks.size();
      bool any = false;
      for (const int t : w.tcd_lanes) {
        const Thread& th = threads_[t];
        if (i >= th.reads.size()) {
          continue;
        }
        any = true;
        const uint32_t a = th.reads[i].first;
        const uint64_t since = th.first_read & mask;
        const auto it = std::find_if(
            checks.begin() + static_cast<std::ptrdiff_t>(row), checks.end(),
            [&](const TcdPort::Check& c) { return table.Chunk(c.addr) == table.Chunk(a); });
        const uint64_t bit = uint64_t{1} << (t - w.first);
        if (it == checks.end()) {
          checks.push_back({a, since, bit});
        } else {
          it->lanes |= bit;
          // The earlier first read (modulo the table's time: both are younger than StaleAge).
          if (((table.now() - since) & mask) > ((table.now() - it->since) & mask)) {
            it->since = since;
          }
        }
      }
      if (!any) {
        return checks;
      }
    }
  }

  /// One cycle of core c's temporal conflict detection.
  bool StepTcd(int c) {
    if (tcd_.empty()) {
      return false;
    }
    TcdPort& p = tcd_[c];
    golden::TcdModel& table = *p.table;
    bool active = false;
    while (!p.in.empty() && p.in.front().at <= now_ && p.in.front().retire) {
      p.retired.Add(p.in.front().v, 0, [](char) {});
      p.in.pop_front();
      TcdGate();
      active = true;
    }
    const bool update = !p.in.empty() && p.in.front().at <= now_;
    if (!update && p.warp < 0 && p.res < 0 && !TcdTurn(p)) {
      return active;  // an idle cycle for the table: run later, with the others, by Idle()
    }
    table.Idle(now_ - p.ticked);
    golden::TcdIn in;
    if (update) {
      in.upd_valid = 1;
      in.upd_addr = p.in.front().v & LowMask(m_.tcd.addr_w);
    }
    if (TcdTurn(p)) {
      p.warp = p.queue.front();
      p.queue.pop_front();
      stats_.tcd_wait_cycles += now_ - warps_[p.warp].tcd_queued;
      p.before = p.retired.next();
      // Lanes whose first read became stale while they waited go to the commit units.
      Warp& w = warps_[p.warp];
      std::erase_if(w.tcd_lanes, [&](int t) {
        if (now_ < TcdStaleAt(t)) {
          return false;
        }
        ++stats_.tcd_stale;
        SendLog(p.warp, t);
        return true;
      });
      p.checks = TcdChecks(p.warp);
      p.next = p.answered = 0;
      p.start = now_;
    }
    if (p.warp >= 0 && p.next < p.checks.size()) {
      in.chk_valid = 1;
      in.chk_addr = p.checks[p.next].addr & LowMask(m_.tcd.addr_w);
      in.chk_since = p.checks[p.next].since;
    }
    const golden::TcdOut out = table.Eval(in);
    if ((out.res_valid != 0) != (p.res >= 0)) {
      Fail("core " + std::to_string(c) + "'s temporal conflict detection answered out of turn");
      return true;
    }
    if (out.res_valid) {
      p.checks[static_cast<size_t>(p.res)].conflict = out.res_conflict != 0;
      ++p.answered;
      p.res = -1;
    }
    if (in.upd_valid && out.upd_ready) {
      p.in.pop_front();
      ++stats_.tcd_updates;
    }
    if (in.chk_valid && out.chk_ready) {
      p.res = static_cast<int>(p.next++);
      ++stats_.tcd_checks;
    }
    table.Tick(in);
    p.ticked = now_ + 1;
    if (p.warp >= 0 && p.answered == p.checks.size()) {
      FinishTcd(c);
    }
    return true;
  }

  /// Core c's lookups of a warp are answered: its lanes whose chunks were not written since
  /// their first read commit here; the others go to the commit units.
  void FinishTcd(int c) {
    TcdPort& p = tcd_[c];
    const int wi = p.warp;
    p.warp = -1;
    Warp& w = warps_[wi];
    stats_.tcd_walk_cycles += now_ + 1 - p.start;
    uint64_t failed = 0;
    for (const TcdPort::Check& k : p.checks) {
      failed |= k.conflict ? k.lanes : 0;
    }
    for (const int t : w.tcd_lanes) {
      if ((failed >> (t - w.first)) & 1) {
        ++stats_.tcd_conflicts;
        SendLog(wi, t);
      } else {
        ++stats_.tcd_commits;
        serial_->Before(p.before, TxEvent(t));
      }
    }
    w.tcd_lanes.clear();
    TcdGate();
    if (--w.pending == 0) {
      FinishCommit(wi);
    }
  }

  /// The serialization replay may pass every commit id that every core knows retired, but not
  /// the place of the lanes being looked up.
  void TcdGate() {
    uint64_t gate = UINT64_MAX;
    for (const TcdPort& p : tcd_) {
      gate = std::min(gate, p.warp >= 0 ? p.before : p.retired.next());
    }
    serial_->Advance(gate);
  }

  /// The message committer `cm` wants to send to unit u now, if any.
  const Msg* Wants(const Committer& cm, int u) const {
    const Committer::Link& l = cm.links[u];
    if (l.need_alloc) {
      static const Msg kAlloc{CuMsg::kAlloc};
      return (!l.alloc_wait && l.retry_at <= now_) ? &kAlloc : nullptr;
    }
    return l.q.empty() ? nullptr : &l.q.front();
  }

  /// The log walkers of core c: at most one message per unit per cycle, oldest commit id first.
  bool SendCommitMessages(int c) {
    if (tm_ == TmMode::kSerial) {
      return false;
    }
    bool sent = false;
    for (int u = 0; u < m_.partitions; ++u) {
      Committer* best = nullptr;
      for (const int wi : cores_[c].resident) {
        for (const auto& cm : warps_[wi].committers) {
          if (Wants(*cm, u) != nullptr && (best == nullptr || cm->cid < best->cid)) {
            best = cm.get();
          }
        }
      }
      if (best == nullptr) {
        continue;
      }
      uint64_t& link = link_free_[static_cast<size_t>(c) * m_.partitions + u];
      if (link > now_) {
        continue;  // the link carries a memory request this cycle
      }
      link = now_ + 1;
      Committer::Link& l = best->links[u];
      const Msg m = *Wants(*best, u);
      if (l.need_alloc) {
        l.alloc_wait = true;
      } else {
        l.q.pop_front();
      }
      ++stats_.cu_messages;
      const uint64_t cid = best->cid;
      At(now_ + static_cast<uint64_t>(m_.icnt_latency), [this, u, m, cid, c] {
        cu_in_[u].push_back({m, cid, c});
      });
      sent = true;
    }
    return sent;
  }

  struct CuIn {
    Msg m;
    uint64_t cid;
    int core;
  };
  struct MemOp {
    uint64_t due;
    uint32_t addr, data;
    uint64_t tag;
  };

  /// One commit-unit cycle of partition u.
  bool TickUnit(int u) {
    CommitUnitIn in;
    const bool offered = !cu_in_[u].empty();
    if (offered) {
      const CuIn& f = cu_in_[u].front();
      in.in_valid = 1;
      in.in_type = static_cast<uint64_t>(f.m.type);
      in.in_cid = f.cid & LowMask(m_.cu.cid_w);
      in.in_src = static_cast<uint64_t>(f.core);
      in.in_addr = f.m.addr;
      in.in_data = f.m.data;
    }
    in.vr_req_ready = 1;
    in.cw_req_ready = 1;
    if (!vr_[u].empty() && vr_[u].front().due <= now_) {
      in.vr_rsp_valid = 1;
      in.vr_rsp_tag = vr_[u].front().tag;
      in.vr_rsp_data = mem_[vr_[u].front().addr];
      vr_[u].pop_front();
    }
    if (!cw_[u].empty() && cw_[u].front().due <= now_) {
      in.cw_ack_valid = 1;
      mem_[cw_[u].front().addr] = cw_[u].front().data;
      if (Tcd()) {
        TcdBroadcast(false, cw_[u].front().addr);
      }
      cw_[u].pop_front();
    }
    CommitUnitModel& unit = units_[u];
    const CommitUnitOut out = unit.Eval(in);
    unit.Tick(in);
    const bool rct = Cat() && StepRct(u, out);
    ++stats_.cu_cycles;
    // Work for the next tick: open entries, the history's sweep, and a message taken or a reply
    // sent now (a registered reply follows the message it answers).
    unit_working_[u] =
        out.busy != 0 || unit.Sweeping() || offered || out.arep_valid != 0 || out.rep_valid != 0;
    stats_.cu_busy_cycles += out.busy;
    if (out.err) {
      Fail("commit unit " + std::to_string(u) + " flagged a protocol error");
      return true;
    }
    if (offered && out.in_ready) {
      cu_in_[u].pop_front();
    }
    if (out.vr_req_valid) {
      vr_[u].push_back({now_ + static_cast<uint64_t>(m_.cu_mem_latency),
                        static_cast<uint32_t>(out.vr_req_addr), 0, out.vr_req_tag});
    }
    if (out.cw_req_valid) {
      if (PartitionOf(static_cast<uint32_t>(out.cw_req_addr)) != u ||
          !InMemory(static_cast<uint32_t>(out.cw_req_addr))) {
        Fail("commit unit " + std::to_string(u) + " wrote word " + std::to_string(out.cw_req_addr) +
             " of another partition");
        return true;
      }
      cw_[u].push_back({now_ + static_cast<uint64_t>(m_.cu_mem_latency),
                        static_cast<uint32_t>(out.cw_req_addr),
                        static_cast<uint32_t>(out.cw_req_data), 0});
    }
    if (out.arep_valid) {
      const uint64_t cid = out.arep_cid;
      const bool pass = out.arep_pass != 0;
      At(now_ + static_cast<uint64_t>(m_.icnt_latency),
         [this, u, cid, pass] { Reply(u, cid, pass ? -1 : -2); });
    }
    if (out.rep_valid) {
      const uint64_t cid = out.rep_cid;
      const int type = static_cast<int>(out.rep_type);
      const bool cap =
          out.rep_type == static_cast<uint64_t>(CuRep::kFail) && unit.CapacityFailed(out.rep_cid);
      At(now_ + static_cast<uint64_t>(m_.icnt_latency),
         [this, u, cid, type, cap] { Reply(u, cid, type, cap); });
    }
    return offered || unit_working_[u] || rct;
  }

  /// Early-Abort: one cycle of unit u's RCT on the unit's event stream; its messages go to every
  /// core's CAT. True while it has work.
  bool StepRct(int u, const CommitUnitOut& out) {
    golden::RctIn ri;
    ri.inc_valid = out.rct_inc_valid;
    ri.inc_addr = out.rct_inc_addr;
    ri.inc_write = out.rct_inc_write;
    ri.dec_valid = out.rct_dec_valid;
    ri.dec_addr = out.rct_dec_addr;
    ri.dec_write = out.rct_dec_write;
    golden::RctModel& r = rcts_[u];
    const golden::RctOut ro = r.Eval(ri);
    r.Tick(ri);
    rct_pending_[u] += ro.dlt_valid;
    if (ro.msg_valid) {
      cat_chan_->Send(
          now_, CatChannel::Msg(ro.msg_dlt.begin(),
                                ro.msg_dlt.begin() + static_cast<std::ptrdiff_t>(ro.msg_count)));
      rct_pending_[u] -= ro.msg_count;
      ++stats_.rct_messages;
      stats_.rct_deltas += ro.msg_count;
    }
    stats_.rct_lost += ro.lost_queue + ro.lost_full + ro.lost_sat;
    rct_working_[u] = ro.busy != 0 || ro.ready == 0;  // clearing after reset is work too
    return rct_working_[u] || rct_pending_[u] > 0;
  }

  /// A commit unit's reply reaches the core. kind: -1 AllocPass, -2 AllocFail, else cu_rep_e;
  /// cap: a Fail because a word found the unit's buffer full.
  void Reply(int u, uint64_t cid_low, int kind, bool cap = false) {
    const auto it = by_cid_.find(cid_low);
    if (it == by_cid_.end()) {
      Fail("commit unit " + std::to_string(u) + " replied for commit id " +
           std::to_string(cid_low) + " (reply " + std::to_string(kind) +
           "), which no core is committing");
      return;
    }
    Committer& cm = *it->second;
    Committer::Link& l = cm.links[u];
    if (kind < 0) {
      l.alloc_wait = false;
      if (kind == -2) {
        ++stats_.cu_alloc_fails;
        l.retry_at = now_ + static_cast<uint64_t>(m_.alloc_retry);
      } else {
        l.need_alloc = false;
      }
      return;
    }
    const auto rep = static_cast<CuRep>(kind);
    if (rep == CuRep::kPass || rep == CuRep::kFail) {
      l.rep = rep == CuRep::kPass ? 1 : 2;
      cm.capacity = cm.capacity || cap;
      bool all = true, pass = true;
      for (const auto& x : cm.links) {
        all = all && (!x.involved || x.rep != 0);
        pass = pass && (!x.involved || x.rep == 1);
      }
      if (all) {
        if (pass && Si()) {
          // (A try aborted meanwhile, by a timestamp overflow, fails.)
          cm.node =
              threads_[cm.thread].doomed ? -1 : SiCommit(cm.thread, SiGraph::Key{cm.cid + 1, 0});
          pass = cm.node >= 0;
        }
        cm.committed = pass;
        for (auto& x : cm.links) {
          if (x.involved && x.rep == 1) {
            x.q.push_back({pass ? CuMsg::kPass : CuMsg::kFail});
            x.done_wait = pass && x.writes;
          }
        }
        Decide(cm);
      }
    } else if (rep == CuRep::kDoneCommit) {
      l.done_wait = false;
      Decide(cm);
    } else {
      Fail("commit unit " + std::to_string(u) + " sent reply type " + std::to_string(kind));
    }
  }

  /// The committer's outcome is final once every reply is in and, after a pass, every unit it
  /// wrote to acknowledged the commit.
  void Decide(Committer& cm) {
    if (cm.decided) {
      return;
    }
    for (const auto& x : cm.links) {
      if (x.involved && (x.rep == 0 || x.done_wait)) {
        return;
      }
    }
    cm.decided = true;
    if (Tcd()) {
      TcdBroadcast(true, cm.cid);
    }
    if (Si()) {
      SiDecided(cm);
    } else {
      serial_->Decided(cm.cid, cm.committed, TxEvent(cm.thread));
    }
    Warp& w = warps_[cm.warp];
    if (--w.pending == 0) {
      FinishCommit(cm.warp);
    }
  }

  /// Every thread of the try is decided: committed threads go on after the transaction, the
  /// others wait at TX_Begin and run again (the warp keeps its transactional slot).
  void FinishCommit(int wi) {
    Warp& w = warps_[wi];
    std::unordered_map<int, bool> outcome;
    // A committer waits until its messages have left: the Pass/Fail outcomes, and the Alloc and
    // Skip of a unit it sent no entry to (every unit must see every commit id), whose replies
    // still come.
    for (const auto& cm : w.committers) {
      for (const auto& x : cm->links) {
        if (!x.q.empty() || x.alloc_wait) {
          return FinishLater(wi);
        }
      }
    }
    std::unordered_set<int> capacity;
    for (const auto& cm : w.committers) {
      outcome[cm->thread] = cm->committed;
      if (cm->capacity) {
        capacity.insert(cm->thread);
      }
      by_cid_.erase(cm->cid & LowMask(m_.cu.cid_w));
    }
    w.committers.clear();
    bool any_abort = false;
    for (const int t : w.tx) {
      Thread& th = threads_[t];
      const auto it = outcome.find(t);
      bool ok =
          !th.doomed && th.iw_abort == Thread::IwAbort::kNo && (it == outcome.end() || it->second);
      if (ok && Si() && it == outcome.end() && !th.reads.empty()) {
        ok = SiCommit(t, SiGraph::Key{}) >= 0;  // a read-only try: the graph decides here
      }
      current_ = t;
      if (ok) {
        ++stats_.commits;
        stats_.read_only_commits += it == outcome.end() ? 1 : 0;
        stats_.tx_cycles += now_ - th.tx_start;
        th.lane->CommitTry();
        Settle(t);
      } else {
        any_abort = true;
        ++stats_.aborts;
        (th.si_why == Thread::SiWhy::kLoop || th.si_why == Thread::SiWhy::kMissed
             ? stats_.aborts_loop
         : th.si_why == Thread::SiWhy::kSingleWriter  ? stats_.aborts_single_writer
         : th.si_why == Thread::SiWhy::kFull          ? stats_.aborts_si_full
         : th.doomed                                  ? stats_.aborts_zombie
         : th.iw_abort == Thread::IwAbort::kIntraWarp ? stats_.aborts_intra_warp
         : th.iw_abort == Thread::IwAbort::kEarly     ? stats_.aborts_early
         : capacity.count(t) != 0                     ? stats_.aborts_capacity
                                                      : stats_.aborts_validation) += 1;
        stats_.wasted_cycles += now_ - th.tx_start;
        th.lane->AbortTry();
      }
      if (Ts()) {
        TsEnd(t, ok);
      }
      if (Si()) {
        smem_->Release(th.snap);
      }
    }
    if (Si()) {
      SiPublish();
    }
    if (Ts()) {
      TsRetire();
      --si_tx_warps_;
      si_throttle_ = si_throttle_ && std::any_of(w.tx.begin(), w.tx.end(), [this](int t) {
                       return threads_[t].si_why == Thread::SiWhy::kFull;
                     });
      Wake(si_waiters_);
    }
    w.tx.clear();
    w.committing = false;
    w.ready_at = now_ + 1;
    w.tx_aborts = w.tx_aborts || any_abort;
    if (!w.paused.empty()) {
      // Pause-and-Go: the latest paused group resumes its tries at the paused access.
      w.tx = std::move(w.paused.back());
      w.paused.pop_back();
      return;
    }
    w.in_tx = false;
    if (!w.tx_aborts && w.holds_slot) {
      w.holds_slot = false;
      --cores_[w.core].tx_warps;
      Wake(slot_waiters_[w.core]);
    }
    w.tx_aborts = false;
  }
  void Wake(std::vector<int>& waiters) {
    for (const int wi : waiters) {
      warps_[wi].blocked = false;
      warps_[wi].ready_at = std::max(warps_[wi].ready_at, now_ + 1);
    }
    waiters.clear();
  }
  void FinishLater(int wi) {
    At(now_ + 1, [this, wi] { FinishCommit(wi); });
  }

  // ---- Snapshot isolation -----------------------------------------------------------------------
  /// Thread t's try passed the commit units (or reads only): SITM_Oracle commits it unless that
  /// closes a cycle in the dependency graph. Returns its node, or -1 (aborted: a loop).
  int64_t SiCommit(int t, SiGraph::Key key) {
    Thread& th = threads_[t];
    const SiGraph::Candidate c{key, &th.reads, &th.seen, &th.writes};
    if (graph_->ClosesCycle(c)) {
      // SITM_Oracle's decision; under SITM_TS a cycle post-dating did not report, which the
      // model counts and, having the exact graph, aborts (the hardware has no such check).
      th.si_why = Ts() ? Thread::SiWhy::kMissed : Thread::SiWhy::kLoop;
      stats_.si_loops_missed += Ts() ? 1 : 0;
      return -1;
    }
    LogEvent e = TxEvent(t);
    e.cid = key.major == 0 ? 0 : key.major - 1;
    const int64_t node = graph_->Add(c, std::move(e));
    if (Ts()) {
      TsCommitted(t, node);
    }
    return node;
  }

  // ---- SITM_TS: the Writer Table, the Reader List, post-dating ---------------------------------
  // Transaction ids (post-dating slots) come from a pool. A try takes one at its TX_Begin; an
  // aborted try's entries leave the tables and its id returns at once. A committed try stays
  // (its entries, its id, its slot's committed timestamps) while a running or later try could
  // still close a cycle through it (TsRetire), then leaves as the paper's removal "once a
  // transaction passes the commit" would have it (docs/htmsim.md, "SITM_TS").

  /// A post-dating operation; a loop or an overflow aborts thread t (the access's maker).
  void Postdate(PdOp op, int a, int b, int t) {
    const golden::PdResult r =
        pd_->Apply(static_cast<uint64_t>(op), static_cast<uint64_t>(a), static_cast<uint64_t>(b));
    if (r.err) {
      Fail("the post-dating unit refused operation " + std::string(ToString(op)) + " on slots " +
           std::to_string(a) + ", " + std::to_string(b));
      return;
    }
    if (op == PdOp::kEdge) {
      ++stats_.si_pd_edges;
    }
    if (r.ovf) {
      // The logical timestamps ran out: every running try aborts and the table restarts (4.3).
      ++stats_.si_pd_overflows;
      pd_->Reset();
      for (Thread& th : threads_) {
        if (th.si_id >= 0 && !th.doomed) {
          TsAbort(th, Thread::SiWhy::kFull);
        }
      }
      return;
    }
    if (r.loop && t >= 0) {
      TsAbort(threads_[t], Thread::SiWhy::kLoop);
    }
  }

  /// The try of `th` aborts at once (§5: the loop result goes back to the access's maker): it
  /// stops, its entries leave the tables, and its warp's commit counts the abort.
  void TsAbort(Thread& th, Thread::SiWhy why) {
    if (why == Thread::SiWhy::kFull) {
      si_full_ = si_throttle_ = true;
    }
    th.si_why = why;
    th.doomed = true;
    if (th.si_id >= 0) {
      const int id = th.si_id;
      th.si_id = -1;
      Postdate(PdOp::kAbort, id, 0, -1);
      Leave(id, th.rl_words, th.wt_words);
    }
  }

  /// One Writer Table operation through the block's ports, run to its result.
  golden::WriterTableOut WtOp(WtOp kind, uint32_t addr, int tx) {
    golden::WriterTableIn in;
    in.op_valid = 1;
    in.op_kind = static_cast<uint64_t>(kind);
    in.op_addr = addr;
    in.op_tx = static_cast<uint64_t>(tx);
    for (int cycle = 0; cycle < 1 << 20; ++cycle) {
      const golden::WriterTableOut out = wt_->Eval(in);
      if (out.res_valid && in.op_valid == 0) {
        return out;
      }
      const bool taken = in.op_valid != 0 && out.op_ready != 0;
      wt_->Tick(in);
      if (taken) {
        in.op_valid = 0;
      }
    }
    Fail("the Writer Table gave no result");
    return {};
  }

  void TsBegin(int t) {
    Thread& th = threads_[t];
    th.rl_words.clear();
    th.wt_words.clear();
    if (free_ids_.empty()) {
      th.si_id = -1;
      TsAbort(th, Thread::SiWhy::kFull);  // no id: abort and wait
      return;
    }
    th.si_id = free_ids_.back();
    free_ids_.pop_back();
    Postdate(PdOp::kBegin, th.si_id, 0, -1);
  }

  /// A transactional load of word a (§5): the try becomes a reader; the word's writer gives an
  /// edge, writer -> reader when its version is in the try's snapshot, else reader -> writer.
  void TsRead(int t, uint32_t a) {
    Thread& th = threads_[t];
    if (th.si_id < 0) {
      Fail(Describe(t) + ": a transactional load without a transaction id");
      return;
    }
    const golden::RlResult r = rl_->Insert(a, static_cast<uint64_t>(th.si_id));
    if (r == golden::RlResult::kFull) {
      TsAbort(th, Thread::SiWhy::kFull);
      return;
    }
    if (r == golden::RlResult::kInserted) {
      th.rl_words.push_back(a);
    }
    const golden::WriterTableOut w = WtOp(WtOp::kRead, a, th.si_id);
    if (w.res_found == 0 || static_cast<int>(w.res_writer) == th.si_id) {
      return;
    }
    const int writer = static_cast<int>(w.res_writer);
    const auto it = retained_.find(writer);
    const bool seen = it != retained_.end() && it->second.pub <= th.snap;
    if (seen) {
      Postdate(PdOp::kEdge, writer, th.si_id, t);
    } else {
      Postdate(PdOp::kEdge, th.si_id, writer, t);
    }
  }

  /// A transactional store's first write of word a (§5): the try becomes its single writer (if
  /// another transaction writes the word, running or committed, the requester aborts) and every
  /// reader gives an edge reader -> writer.
  void TsWrite(int t, uint32_t a) {
    Thread& th = threads_[t];
    if (th.si_id < 0) {
      Fail(Describe(t) + ": a transactional store without a transaction id");
      return;
    }
    const golden::WriterTableOut w = WtOp(WtOp::kWrite, a, th.si_id);
    if (w.res_full != 0) {
      TsAbort(th, Thread::SiWhy::kFull);
      return;
    }
    if (w.res_found != 0 && static_cast<int>(w.res_writer) != th.si_id) {
      TsAbort(th, Thread::SiWhy::kSingleWriter);
      return;
    }
    if (w.res_inserted != 0) {
      th.wt_words.push_back(a);
    }
    for (const uint64_t r : rl_->Enumerate(a)) {
      if (static_cast<int>(r) != th.si_id && !th.doomed) {
        Postdate(PdOp::kEdge, static_cast<int>(r), th.si_id, t);
      }
    }
  }

  /// Thread t's try committed as graph node `node`: its slot is marked committed and its entries
  /// are kept until TsRetire lets them go.
  void TsCommitted(int t, int64_t node) {
    Thread& th = threads_[t];
    Postdate(PdOp::kCommit, th.si_id, 0, -1);
    // A read-only transaction is placed just after its snapshot; a writer when it is published.
    Retained r{th.snap, th.writes.empty() ? th.snap + 1 : UINT64_MAX, node, th.rl_words,
               th.wt_words};
    retained_[th.si_id] = std::move(r);
    by_node_[node] = th.si_id;
    stats_.si_retained_max = std::max<uint64_t>(stats_.si_retained_max, retained_.size());
    th.si_id = -1;  // the id now belongs to the committed transaction
  }

  /// The try of thread t ended: an aborted one leaves the tables and frees its id.
  void TsEnd(int t, bool committed) {
    Thread& th = threads_[t];
    if (committed || th.si_id < 0) {
      th.si_id = -1;
      return;
    }
    Postdate(PdOp::kAbort, th.si_id, 0, -1);
    Leave(th.si_id, th.rl_words, th.wt_words);
    th.si_id = -1;
  }

  void Leave(int id, const std::vector<uint32_t>& rl_words, const std::vector<uint32_t>& wt_words) {
    for (const uint32_t a : rl_words) {
      rl_->Remove(a, static_cast<uint64_t>(id));
    }
    for (const uint32_t a : wt_words) {
      WtOp(WtOp::kRemove, a, id);
    }
    free_ids_.push_back(id);
    si_full_ = false;  // an entry (and an id) is free again
  }

  /// Committed transactions that no running or later try can reach a cycle through leave the
  /// tables. A try can only make an edge into a committed transaction whose writes are not in
  /// its snapshot (read -> write); from there edges lead to transactions published later, or,
  /// read -> write again, to ones published after the reader's snapshot. So with m the oldest
  /// snapshot in use, lowered to the snapshot of every committed transaction published after
  /// m, until it holds, every committed transaction published at or before m is out of reach.
  /// A committed transaction without writes counts as published just after its snapshot.
  void TsRetire() {
    uint64_t m = smem_->oldest();
    for (bool lowered = true; lowered;) {
      lowered = false;
      for (const auto& [id, r] : retained_) {
        if (r.pub > m && r.snap < m) {
          m = r.snap;
          lowered = true;
        }
      }
    }
    for (auto it = retained_.begin(); it != retained_.end();) {
      if (it->second.pub <= m) {
        Leave(it->first, it->second.rl_words, it->second.wt_words);
        by_node_.erase(it->second.node);
        it = retained_.erase(it);
      } else {
        ++it;
      }
    }
  }

  /// A committer is decided: its writes join the next snapshot once every older commit id is
  /// decided (a snapshot holds a prefix of the commit order, as the units wrote it).
  void SiDecided(const Committer& cm) {
    si_pending_.Add(cm.cid,
                    cm.committed ? std::make_pair(cm.node, threads_[cm.thread].writes)
                                 : std::make_pair(int64_t{-1}, WordLog{}),
                    [this](std::pair<int64_t, WordLog> x) {
                      if (x.first >= 0) {
                        si_ready_.push_back(std::move(x));
                      }
                    });
    graph_->SetHorizon(SiGraph::Key{si_pending_.next(), 0});
  }

  /// A warp's commit is complete, or snapshots were released: the commits ready become the
  /// newest snapshot, when a version is free.
  void SiPublish() {
    if (si_ready_.empty()) {
      return;
    }
    if (!smem_->CanPublish()) {
      ++stats_.si_version_waits;
      return;
    }
    smem_->Publish(si_ready_);
    for (const auto& [node, writes] : si_ready_) {
      if (const auto it = by_node_.find(node); it != by_node_.end()) {
        retained_[it->second].pub = smem_->newest();
      }
    }
    si_ready_.clear();
    ++stats_.si_snapshots;
  }

  /// The end of the run: the log in a topological order of the dependency graph, each read
  /// naming the event whose version it returned; a cycle is a write-skew anomaly let through.
  void SiReplay() {
    std::vector<int64_t> order;
    std::string cycle;
    if (!graph_->Order(&order, &cycle)) {
      Fail("snapshot isolation committed a dependency cycle (write skew): " + cycle);
      return;
    }
    std::vector<int64_t> id(graph_->size(), -1);
    for (const int64_t n : order) {
      id[static_cast<size_t>(n)] = static_cast<int64_t>(serial_->events());
      LogEvent e = graph_->event(n);
      const std::vector<int64_t>& seen = graph_->seen(n);
      for (size_t i = 0; i < e.reads.size(); ++i) {
        e.reads[i].writer = seen[i] < 0 ? -1 : id[static_cast<size_t>(seen[i])];
      }
      serial_->Replay(std::move(e));
    }
  }

  const MachineConfig& m_;
  const TmMode tm_;
  Workload& w_;
  const RunOptions& opt_;
  std::vector<uint32_t> mem_;
  std::unique_ptr<Serializer> serial_;
  std::unique_ptr<SnapshotMemory> smem_;  // snapshot isolation
  std::unique_ptr<SiGraph> graph_;
  // SITM_TS.
  std::unique_ptr<golden::WriterTableModel> wt_;
  std::unique_ptr<golden::ReaderListTable> rl_;
  std::unique_ptr<golden::PostdateTable> pd_;
  std::vector<int> free_ids_;
  struct Retained {
    uint64_t snap = 0, pub = UINT64_MAX;  // its snapshot; the snapshot its writes joined
    int64_t node = -1;
    std::vector<uint32_t> rl_words, wt_words;
  };
  std::map<int, Retained> retained_;          // committed, by transaction id
  std::unordered_map<int64_t, int> by_node_;  // graph node -> transaction id
  std::vector<int> si_waiters_;               // warps waiting at TX_Begin (full tables)
  int si_tx_warps_ = 0;                       // warps in a transaction
  bool si_full_ = false, si_throttle_ = false;
  InCidOrder<std::pair<int64_t, WordLog>> si_pending_;  // decided, released in cid order
  std::vector<std::pair<int64_t, WordLog>> si_ready_;   // in order, not yet published
  uint64_t si_write_seq_ = 0;
  std::vector<Thread> threads_;
  std::vector<Warp> warps_;
  std::vector<Core> cores_;
  std::vector<EcrPort> ecr_;            // WarpTM: one per core
  std::vector<TcdPort> tcd_;            // WarpTM's TCD: one per core
  std::vector<golden::RctModel> rcts_;  // Early-Abort: one per commit unit
  std::vector<uint64_t> rct_pending_;   // deltas an RCT emitted and has not sent yet
  bool rct_working_[64] = {};
  std::unique_ptr<CatChannel> cat_chan_;
  std::vector<CommitUnitModel> units_;
  std::vector<std::deque<CuIn>> cu_in_;
  std::vector<std::deque<MemOp>> vr_, cw_;
  std::vector<uint64_t> part_free_, link_free_;
  bool unit_working_[64] = {};
  std::unordered_map<uint64_t, Committer*> by_cid_;
  std::vector<int> token_waiters_;
  std::vector<std::vector<int>> slot_waiters_;
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events_;
  SystemStats stats_;
  std::string error_;
  uint64_t now_ = 0, seq_ = 0, next_cid_ = 0, serial_cid_ = 0;
  int done_threads_ = 0, current_ = 0, token_ = -1;
};

}  // namespace

RunResult RunSystem(const MachineConfig& m, TmMode tm, Workload& w, const RunOptions& opt) {
  if (std::string err = CheckMachine(m); !err.empty()) {
    throw std::invalid_argument("machine '" + m.name + "': " + err);
  }
  if (m.partitions > 64) {
    throw std::invalid_argument("machine '" + m.name + "': at most 64 partitions");
  }
  if (tm == TmMode::kFgl && !w.HasLocks()) {
    throw std::invalid_argument("the workload has no fine-grained-lock version (fgl)");
  }
  Machine machine(m, tm, w, opt);
  return machine.Run();
}

}  // namespace htm::gpu
