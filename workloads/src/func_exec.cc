// SPDX-License-Identifier: Apache-2.0
//
// The functional executor: see htm/gpu/func_exec.h.
#include "htm/workloads/func_exec.h"

#include <algorithm>
#include <exception>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "htm/workloads/common.h"

namespace htm::gpu {

const char* ToString(Schedule s) {
  return s == Schedule::kFree ? "free" : "simt";
}

const char* ToString(Fault f) {
  switch (f) {
    case Fault::kNone:
      return "none";
    case Fault::kLoseTx:
      return "lose-tx";
    case Fault::kTearTx:
      return "tear-tx";
    case Fault::kRepeatTx:
      return "repeat-tx";
    case Fault::kNoIsolation:
      return "no-isolation";
  }
  return "?";
}

namespace {

class Executor {
 public:
  Executor(const Geometry& geo, std::vector<uint32_t> mem, const FuncExecOptions& opt,
           const Naming& naming)
      : geo_(geo), opt_(opt), n_(naming), mem_(std::move(mem)), rng_(opt.seed) {}

  FuncExecResult Run(const std::function<Task(Lane&)>& kernel) {
    FuncExecResult r;
    if (mem_.size() > static_cast<size_t>(geo_.mem_words)) {
      Fail(std::string("the initial ") + n_.memory + " contents have " +
           std::to_string(mem_.size()) + " words, the geometry's " + n_.memory + " " +
           std::to_string(geo_.mem_words));
    } else {
      mem_.resize(geo_.mem_words, 0);
      try {
        if (Start(kernel)) {
          if (opt_.schedule == Schedule::kFree ? RunFree() : RunSimt()) {
            r.ok = true;
          }
        }
      } catch (const std::exception& e) {
        Fail(n_.thread + (" " + std::to_string(current_)) + " threw: " + e.what());
      } catch (...) {
        Fail(n_.thread + (" " + std::to_string(current_)) + " threw a non-standard exception");
      }
    }
    r.ok = r.ok && error_.empty();
    r.error = error_;
    r.mem = std::move(mem_);
    r.stats = stats_;
    r.fault_applied = fault_applied_;
    return r;
  }

 private:
  enum class State : uint8_t { kReady, kBarrier, kDone };
  struct Item {
    std::unique_ptr<Lane> lane;
    State state = State::kReady;
    int tx_aborts = 0;  // simulated aborts of the transaction it is in
    // kFree, spin detection: the memory write count at its last latch, whether it wrote since, a
    // hash of what it read since and of what it read in the iteration before.
    uint64_t writes_at_latch = UINT64_MAX;
    bool wrote = false;
    uint64_t reads = 0, last_reads = 1;
    bool parked = false;
  };

  bool Fail(std::string msg) {
    if (error_.empty()) {
      error_ = std::move(msg);
    }
    return false;
  }

  int size() const { return geo_.threads; }

  std::string Describe(int wi) const {
    const Lane& l = *items_[wi].lane;
    const Op& op = l.op();
    std::ostringstream os;
    os << n_.thread << " " << wi << " (" << n_.warp << " " << l.wf() << ", lane " << l.lane()
       << ") at " << OpKindName(op.kind);
    if (IsMemAccess(op.kind)) {
      os << " of word " << op.addr;
    }
    if (op.kind != OpKind::kDone) {
      os << " at line " << PcText(op.pc);
    }
    return os.str();
  }

  /// Where the threads `wis` are, grouped by operation and program point.
  std::string Summary(const std::vector<int>& wis) const {
    std::map<std::pair<uint32_t, int>, std::vector<int>> at;
    for (const int wi : wis) {
      const Op& op = items_[wi].lane->op();
      at[{op.pc, static_cast<int>(op.kind)}].push_back(wi);
    }
    std::ostringstream os;
    int shown = 0;
    for (const auto& [key, list] : at) {
      if (shown++ == 6) {
        os << "; ...";
        break;
      }
      os << (shown > 1 ? "; " : "") << list.size() << " at "
         << OpKindName(static_cast<OpKind>(key.second)) << " line " << PcText(key.first) << " ("
         << n_.thread << "s " << list[0];
      for (size_t i = 1; i < std::min<size_t>(list.size(), 4); ++i) {
        os << ", " << list[i];
      }
      os << (list.size() > 4 ? ", ...)" : ")");
    }
    return os.str();
  }

  std::vector<int> NotDone() const {
    std::vector<int> wis;
    for (int wi = 0; wi < size(); ++wi) {
      if (items_[wi].state != State::kDone) {
        wis.push_back(wi);
      }
    }
    return wis;
  }

  bool Start(const std::function<Task(Lane&)>& kernel) {
    items_.resize(size());
    for (int wi = 0; wi < size(); ++wi) {
      current_ = wi;
      items_[wi].lane = std::make_unique<Lane>(wi, geo_.warp_size, geo_.threads);
      items_[wi].lane->Start(kernel(*items_[wi].lane));
      Settle(wi);
    }
    return true;
  }

  /// Marks a thread whose kernel returned.
  void Settle(int wi) {
    if (items_[wi].lane->op().kind == OpKind::kDone && items_[wi].state != State::kDone) {
      items_[wi].state = State::kDone;
      ++done_;
    }
  }

  bool CheckAddress(int wi, const Op& op) {
    if (op.addr < static_cast<uint32_t>(geo_.mem_words)) {
      return true;
    }
    return Fail(Describe(wi) + ": address outside the " + n_.memory + " of " +
                std::to_string(geo_.mem_words) + " words");
  }

  bool MaybeAbort(Item& it) {
    if (opt_.abort_prob > 0 && it.tx_aborts < opt_.max_aborts && rng_.Chance(opt_.abort_prob)) {
      ++it.tx_aborts;
      ++stats_.tx_aborts;
      return true;
    }
    return false;
  }

  static void Read(Item& it, const Op& op, uint32_t value) {
    it.reads = (it.reads ^ ((uint64_t{op.pc} << 32 | op.addr) + value)) * 0x100000001B3ull;
  }

  void Wrote(Item& it) {
    ++writes_;
    it.wrote = true;
  }

  /// Undoes the try's stores after the first `keep`, newest first.
  void Rollback(size_t keep) {
    while (undo_.size() > keep) {
      mem_[undo_.back().first] = undo_.back().second;
      undo_.pop_back();
    }
  }

  bool ForbiddenInBody(int wi, const Op& op) {
    const Lane& l = *items_[wi].lane;
    return Fail(Describe(wi) + ": a " + OpKindName(op.kind) +
                " inside the transaction body begun at line " + PcText(l.tx_pc()) +
                " (bodies hold no barrier, atomic, fence or transaction)");
  }

  /// Performs the pending operation of a ready thread.
  bool Step(int wi) {
    current_ = wi;
    Item& it = items_[wi];
    Lane& l = *it.lane;
    const Op op = l.op();
    if (l.in_tx() &&
        (op.kind == OpKind::kBarrier || op.kind == OpKind::kAtomAdd ||
         op.kind == OpKind::kAtomCas || op.kind == OpKind::kTxBegin || op.kind == OpKind::kFence)) {
      return ForbiddenInBody(wi, op);
    }
    if (IsMemAccess(op.kind) && !CheckAddress(wi, op)) {
      return false;
    }
    ++stats_.ops;
    stats_.tx_ops += l.in_tx();
    switch (op.kind) {
      case OpKind::kLoad:
        ++stats_.loads;
        Read(it, op, mem_[op.addr]);
        l.Resume(mem_[op.addr]);
        break;
      case OpKind::kStore:
        ++stats_.stores;
        Wrote(it);
        mem_[op.addr] = op.data;
        l.Resume();
        break;
      case OpKind::kAtomAdd: {
        ++stats_.atomics;
        Wrote(it);
        const uint32_t old = mem_[op.addr];
        Read(it, op, old);
        mem_[op.addr] = old + op.data;
        l.Resume(old);
        break;
      }
      case OpKind::kAtomCas: {
        ++stats_.atomics;
        const uint32_t old = mem_[op.addr];
        Read(it, op, old);
        if (old == op.cmp) {
          Wrote(it);
          mem_[op.addr] = op.data;
        }
        l.Resume(old);
        break;
      }
      case OpKind::kCompute:
        Compute(l, op);
        break;
      case OpKind::kLatch:
        ++stats_.latches;
        // A loop iteration that read what the one before read and wrote nothing, while nothing
        // was written, would repeat itself if run again at once (a spin): it may wait until
        // the memory changes.
        it.parked = !it.wrote && it.writes_at_latch == writes_ && it.reads == it.last_reads;
        it.writes_at_latch = writes_;
        it.wrote = false;
        it.last_reads = it.reads;
        it.reads = 0;
        l.Resume();
        break;
      case OpKind::kFence:  // every access is performed when it is made
        l.Resume();
        break;
      case OpKind::kBarrier:
        it.state = State::kBarrier;
        ++waiting_;
        return true;
      case OpKind::kTxBegin:
        if (opt_.fault != Fault::kNoIsolation) {
          return RunTx(wi);
        }
        ++stats_.tx_tries;
        l.BeginTry();
        break;
      case OpKind::kTxCommit:  // only without isolation: bodies run step by step
        ++stats_.tx_commits;
        l.CommitTry();
        break;
      case OpKind::kDone:
      case OpKind::kNone:
        return Fail(Describe(wi) + ": no operation to perform");
    }
    Settle(wi);
    return true;
  }

  /// A compute operation: counted, and the thread goes on.
  void Compute(Lane& l, const Op& op) {
    ++stats_.computes;
    stats_.alu += static_cast<uint64_t>(std::max(op.count, 0));
    l.Resume();
  }

  /// Runs one try of the transaction the thread waits to begin, with no other thread in
  /// between: it commits, or aborts (simulated) and waits to begin again.
  bool RunTx(int wi) {
    Item& it = items_[wi];
    Lane& l = *it.lane;
    ++stats_.tx_tries;
    l.BeginTry();
    undo_.clear();
    uint64_t ops = 0, loads = 0, stores = 0;
    for (;;) {
      const Op op = l.op();
      if (op.kind == OpKind::kTxCommit) {
        if (MaybeAbort(it)) {
          Rollback(0);
          l.AbortTry();
          return true;
        }
        ++stats_.ops;
        if (!undo_.empty()) {
          const uint64_t index = stats_.tx_writing_commits++;
          if (index == opt_.fault_at &&
              (opt_.fault == Fault::kLoseTx || opt_.fault == Fault::kTearTx ||
               opt_.fault == Fault::kRepeatTx)) {
            fault_applied_ = true;
            if (opt_.fault == Fault::kRepeatTx) {
              l.AbortTry();  // its stores stay: the next try repeats the update
              return true;
            }
            Rollback(opt_.fault == Fault::kLoseTx ? 0 : undo_.size() - 1);
          }
        }
        ++stats_.tx_commits;
        stats_.max_tx_ops = std::max(stats_.max_tx_ops, ops);
        stats_.max_tx_loads = std::max(stats_.max_tx_loads, loads);
        stats_.max_tx_stores = std::max(stats_.max_tx_stores, stores);
        it.tx_aborts = 0;
        l.CommitTry();
        Settle(wi);
        return true;
      }
      if (op.kind != OpKind::kLoad && op.kind != OpKind::kStore && op.kind != OpKind::kCompute &&
          op.kind != OpKind::kLatch) {
        return ForbiddenInBody(wi, op);
      }
      if (IsMemAccess(op.kind) && !CheckAddress(wi, op)) {
        return false;
      }
      if (++ops > opt_.max_tx_ops) {
        return Fail(Describe(wi) + ": the transaction body begun at line " + PcText(l.tx_pc()) +
                    " has not finished after " + std::to_string(opt_.max_tx_ops) + " operations");
      }
      if (MaybeAbort(it)) {
        Rollback(0);
        l.AbortTry();
        return true;
      }
      ++stats_.ops;
      ++stats_.tx_ops;
      switch (op.kind) {
        case OpKind::kLoad:
          ++stats_.loads;
          ++loads;
          Read(it, op, mem_[op.addr]);
          l.Resume(mem_[op.addr]);
          break;
        case OpKind::kStore:
          ++stats_.stores;
          ++stores;
          Wrote(it);
          undo_.emplace_back(op.addr, mem_[op.addr]);
          mem_[op.addr] = op.data;
          l.Resume();
          break;
        case OpKind::kCompute:
          Compute(l, op);
          break;
        default:
          ++stats_.latches;
          l.Resume();
          break;
      }
    }
  }

  /// Every thread that has not finished waits at a barrier: releases them.
  bool ReleaseBarrier() {
    const std::vector<int> left = NotDone();
    std::vector<int> stuck, at_barrier;
    for (const int wi : left) {
      (items_[wi].state == State::kBarrier ? at_barrier : stuck).push_back(wi);
    }
    if (!stuck.empty()) {
      return Fail(std::string("deadlock: no ") + n_.thread + " can run; " + Summary(left));
    }
    if (at_barrier.empty()) {
      return true;
    }
    if (done_ > 0) {
      std::vector<int> finished;
      for (int wi = 0; wi < size(); ++wi) {
        if (items_[wi].state == State::kDone) {
          finished.push_back(wi);
        }
      }
      return Fail("barrier never released: " + Summary(at_barrier) + "; but " +
                  std::to_string(done_) + " " + n_.thread + "s finished (e.g. " + n_.thread + " " +
                  std::to_string(finished[0]) + "): every " + n_.thread +
                  " must reach every barrier the same number of times");
    }
    const uint32_t pc = items_[at_barrier[0]].lane->op().pc;
    for (const int wi : at_barrier) {
      if (items_[wi].lane->op().pc != pc) {
        return Fail(n_.thread + std::string("s wait at different barriers: ") +
                    Summary(at_barrier));
      }
    }
    ++stats_.barriers;
    for (const int wi : at_barrier) {
      current_ = wi;
      items_[wi].state = State::kReady;
      --waiting_;
      items_[wi].lane->Resume();
      Settle(wi);
    }
    return true;
  }

  bool Livelock() {
    return Fail("no end after " + std::to_string(opt_.max_ops) + " operations (livelock?); " +
                Summary(NotDone()));
  }

  // Any thread may run next. A thread whose last loop iteration was a pure spin (it wrote
  // nothing and nothing was written meanwhile) is parked until the memory is written or nothing
  // else can run: running it earlier could only repeat the same iteration.
  bool RunFree() {
    std::vector<int> ready, parked;
    for (int wi = 0; wi < size(); ++wi) {
      if (items_[wi].state == State::kReady) {
        ready.push_back(wi);
      }
    }
    uint64_t writes_seen = writes_;
    while (done_ < size()) {
      if (writes_ != writes_seen || ready.empty()) {
        writes_seen = writes_;
        for (const int wi : parked) {
          items_[wi].parked = false;
          ready.push_back(wi);
        }
        parked.clear();
      }
      if (ready.empty()) {
        if (!ReleaseBarrier()) {
          return false;
        }
        for (int wi = 0; wi < size(); ++wi) {
          if (items_[wi].state == State::kReady) {
            ready.push_back(wi);
          }
        }
        continue;
      }
      const size_t k = rng_.Below(ready.size());
      const int wi = ready[k];
      const uint32_t burst = 1 + rng_.Below(static_cast<uint32_t>(opt_.max_burst));
      for (uint32_t b = 0; b < burst; ++b) {
        if (!Step(wi)) {
          return false;
        }
        if (stats_.ops > opt_.max_ops) {
          return Livelock();
        }
        Item& it = items_[wi];
        if (it.state != State::kReady || it.parked) {
          if (it.state == State::kReady) {
            parked.push_back(wi);
          }
          ready[k] = ready.back();
          ready.pop_back();
          break;
        }
      }
    }
    return true;
  }

  /// The next instruction of warp `w`: its threads at the lowest program point, unless
  /// those wait at a barrier.
  bool FormGroup(int w, std::vector<int>* group) {
    const int first = w * geo_.warp_size;
    uint64_t best = UINT64_MAX;
    for (int wi = first; wi < first + geo_.warp_size; ++wi) {
      if (items_[wi].state != State::kDone) {
        const Op& op = items_[wi].lane->op();
        best = std::min(best, (uint64_t{op.pc} << 8) | static_cast<uint64_t>(op.kind));
      }
    }
    for (int wi = first; wi < first + geo_.warp_size; ++wi) {
      const Op& op = items_[wi].lane->op();
      if (items_[wi].state == State::kReady &&
          ((uint64_t{op.pc} << 8) | static_cast<uint64_t>(op.kind)) == best) {
        group->push_back(wi);
      }
    }
    return !group->empty();
  }

  bool RunSimt() {
    const int wavefronts = size() / geo_.warp_size;
    std::vector<std::vector<int>> groups(wavefronts);
    std::vector<int> active;
    while (done_ < size()) {
      active.clear();
      for (int w = 0; w < wavefronts; ++w) {
        if (!groups[w].empty() || FormGroup(w, &groups[w])) {
          active.push_back(w);
        }
      }
      if (active.empty()) {
        if (!ReleaseBarrier()) {
          return false;
        }
        continue;
      }
      std::vector<int>& group = groups[active[rng_.Below(active.size())]];
      const size_t k = rng_.Below(group.size());
      const int wi = group[k];
      group[k] = group.back();
      group.pop_back();
      if (!Step(wi)) {
        return false;
      }
      if (stats_.ops > opt_.max_ops) {
        return Livelock();
      }
    }
    return true;
  }

  const Geometry geo_;
  const FuncExecOptions opt_;
  const Naming n_;
  std::vector<uint32_t> mem_;
  std::vector<Item> items_;
  Rng rng_;
  FuncExecStats stats_;
  std::string error_;
  int current_ = 0;      // the thread being run (for exception messages)
  int done_ = 0;         // threads whose kernel returned
  int waiting_ = 0;      // threads at a barrier
  uint64_t writes_ = 0;  // memory writes so far (stores, atomics that write)
  std::vector<std::pair<uint32_t, uint32_t>> undo_;  // the try's stores: address, old value
  bool fault_applied_ = false;
};

}  // namespace

FuncExecResult RunFunctional(const Geometry& geo, std::vector<uint32_t> mem,
                             const std::function<Task(Lane&)>& kernel, const FuncExecOptions& opt,
                             const Naming& naming) {
  if (geo.threads < 1 || geo.warp_size < 1 || geo.mem_words < 1 ||
      geo.threads % geo.warp_size != 0) {
    throw std::invalid_argument(
        "RunFunctional: the geometry needs positive sizes and threads a multiple of warp_size");
  }
  if (opt.max_burst < 1 || opt.max_aborts < 0 || !(opt.abort_prob >= 0 && opt.abort_prob <= 1)) {
    throw std::invalid_argument(
        "RunFunctional: max_burst >= 1, max_aborts >= 0 and abort_prob in [0, 1] are required");
  }
  Executor ex(geo, std::move(mem), opt, naming);
  return ex.Run(kernel);
}

}  // namespace htm::gpu
