// SPDX-License-Identifier: Apache-2.0
//
// The SIMT core: launching warps, the warp scheduler, the issue of warp instructions, coalescing
// and the memory path of loads, stores and atomics; the transactional accesses go through the TM
// policy. See machine.h.
#include <algorithm>

#include "machine.h"
#include "tm_policy.h"

namespace htm::gpu {

void SimtCore::Launch() {
  if (stacks_.empty() && m_.policy->UsesSimtStack()) {
    stacks_.reserve(static_cast<size_t>(m_.cfg.warps_per_core));
    for (int k = 0; k < m_.cfg.warps_per_core; ++k) {
      stacks_.push_back(std::make_unique<SimtStack>(m_, id_, k));
    }
    slot_used_.assign(stacks_.size(), false);
  }
  while (static_cast<int>(resident.size()) < m_.cfg.warps_per_core && !waiting.empty()) {
    const int wi = waiting.front();
    waiting.pop_front();
    resident.push_back(wi);
    Warp& w = m_.warps[static_cast<size_t>(wi)];
    w.launched = true;
    if (!slot_used_.empty()) {
      w.slot = static_cast<int>(std::find(slot_used_.begin(), slot_used_.end(), false) -
                                slot_used_.begin());
      slot_used_[static_cast<size_t>(w.slot)] = true;
    }
    w.ready_at = m_.now() + 1;
    for (int t = w.first; t < w.first + 32; ++t) {
      m_.current = t;
      Thread& th = m_.threads[static_cast<size_t>(t)];
      th.lane = std::make_unique<Lane>(t, 32, m_.workload.threads());
      th.lane->Start(m_.policy->Kernel(*th.lane));
      m_.Settle(t);
    }
    if (SimtStack* s = StackOf(w)) {
      s->Init(wi);
    }
  }
}

bool SimtCore::IssueCycle() {
  const size_t n = resident.size();
  for (size_t k = 0; k < n; ++k) {
    const size_t i = (rr_ + k) % n;
    Warp& w = m_.warps[static_cast<size_t>(resident[i])];
    if (w.finished || w.blocked || w.pending > 0 || w.committing || w.pag_wait ||
        w.ready_at > m_.now()) {
      continue;
    }
    const int r = Issue(resident[i]);
    if (r == 0) {
      continue;  // nothing to issue (stalled)
    }
    rr_ = (i + 1) % n;
    if (r == 2) {  // the warp finished: make room for the next
      if (!slot_used_.empty()) {
        slot_used_[static_cast<size_t>(w.slot)] = false;
      }
      resident.erase(resident.begin() + static_cast<std::ptrdiff_t>(i));
      Launch();
      rr_ = resident.empty() ? 0 : rr_ % resident.size();
    }
    return true;
  }
  return false;
}

void SimtCore::NextWake(uint64_t* next) const {
  const uint64_t now = m_.now();
  for (const int wi : resident) {
    const Warp& w = m_.warps[static_cast<size_t>(wi)];
    if (!w.finished && !w.blocked && w.pending == 0 && !w.committing && !w.pag_wait) {
      *next = std::min(*next, std::max(w.ready_at, now));
    }
    // A log walker's next message: an Alloc waiting to be retried, or a message waiting for the
    // link, which memory requests may have booked ahead.
    for (const auto& cm : w.committers) {
      for (int u = 0; u < m_.cfg.partitions; ++u) {
        const Committer::Link& l = cm->links[static_cast<size_t>(u)];
        if (l.need_alloc && !l.alloc_wait) {
          *next = std::min(*next, std::max(l.retry_at, now));
        }
        if (Wants(*cm, u) != nullptr) {
          *next = std::min(*next, std::max(m_.icnt.link_free(id_, u), now));
        }
      }
    }
  }
}

std::vector<int> SimtCore::Group(Warp& w) const {
  std::vector<int> cand;
  if (w.in_tx) {
    m_.policy->TxCandidates(w, &cand);
  } else {
    for (int t = w.first; t < w.first + 32; ++t) {
      if (!m_.threads[static_cast<size_t>(t)].done) {
        cand.push_back(t);
      }
    }
  }
  uint64_t best = UINT64_MAX;
  for (const int t : cand) {
    const Op& op = m_.threads[static_cast<size_t>(t)].lane->op();
    best = std::min(best, (uint64_t{op.pc} << 8) | static_cast<uint64_t>(op.kind));
  }
  std::vector<int> group;
  for (const int t : cand) {
    const Op& op = m_.threads[static_cast<size_t>(t)].lane->op();
    if (((uint64_t{op.pc} << 8) | static_cast<uint64_t>(op.kind)) == best) {
      group.push_back(t);
    }
  }
  return group;
}

int SimtCore::Issue(int wi) {
  Warp& w = m_.warps[static_cast<size_t>(wi)];
  // The lanes to issue: the SIMT stack's top, or without one the lanes at the lowest point.
  std::vector<int> g;
  SimtStack* const stack = StackOf(w);
  if (stack == nullptr) {
    g = Group(w);
  } else if (!stack->Follow(wi, &g)) {
    return 1;
  }
  if (g.empty()) {
    if (w.in_tx) {
      return m_.policy->BodyDone(wi);
    }
    w.finished = true;
    return 2;
  }
  const Op op = m_.threads[static_cast<size_t>(g[0])].lane->op();
  ++m_.stats.warp_instructions;
  m_.stats.executed_instructions +=
      op.kind == OpKind::kCompute ? static_cast<uint64_t>(std::max(1, op.count)) : 1;
  if (w.in_tx) {
    for (const int t : g) {
      if (++m_.threads[static_cast<size_t>(t)].tx_ops > m_.cfg.max_tx_ops) {
        m_.policy->TryTooLong(t);
        if (!m_.error.empty()) {
          return 1;
        }
      }
    }
    g = m_.Live(g);
    if (g.empty()) {
      w.ready_at = m_.now() + 1;
      return 1;
    }
    if (op.kind == OpKind::kBarrier || op.kind == OpKind::kAtomAdd || op.kind == OpKind::kAtomCas ||
        op.kind == OpKind::kTxBegin || op.kind == OpKind::kFence) {
      m_.Fail(m_.Describe(g[0]) + ": a " + OpKindName(op.kind) +
              " inside a transaction body (bodies hold no barrier, atomic, fence or transaction)");
      return 1;
    }
  }
  switch (op.kind) {
    case OpKind::kCompute:
      m_.ResumeAll(g);
      w.ready_at = m_.now() + static_cast<uint64_t>(std::max(1, op.count));
      return 1;
    case OpKind::kLatch:
      m_.ResumeAll(g);
      w.ready_at = m_.now() + 1;
      return 1;
    case OpKind::kFence:
      if (w.stores_out > 0) {
        return 0;  // the warp's earlier stores are not all performed yet
      }
      m_.ResumeAll(g);
      w.ready_at = m_.now() + 1;
      return 1;
    case OpKind::kLoad:
    case OpKind::kStore:
      return w.in_tx ? m_.policy->TxAccess(wi, g) : m_.MemAccess(wi, g, false);
    case OpKind::kAtomAdd:
    case OpKind::kAtomCas:
      return m_.MemAccess(wi, g, true);
    case OpKind::kBarrier:
      m_.Fail(m_.Describe(g[0]) + ": the system model has no grid-wide barrier");
      return 1;
    case OpKind::kTxBegin: {
      const int r = m_.policy->TxBegin(wi, g);
      if (r != 0 && w.in_tx && stack != nullptr) {
        stack->TxBegin(wi, g);
      }
      return r;
    }
    case OpKind::kTxCommit:
    case OpKind::kDone:
    case OpKind::kNone:
      m_.Fail(m_.Describe(g[0]) + ": nothing to issue");
      return 1;
  }
  return 1;
}

// ---- Threads and warps ------------------------------------------------------------------------

void Machine::Settle(int t) {
  Thread& th = threads[static_cast<size_t>(t)];
  if (!th.done && th.lane->op().kind == OpKind::kDone) {
    th.done = true;
    ++done_threads;
  }
}

void Machine::ResumeAll(const std::vector<int>& g) {
  for (const int t : g) {
    current = t;
    Thread& th = threads[static_cast<size_t>(t)];
    th.lane->Resume(th.result);
    Settle(t);
  }
}

void Machine::Complete(int wi) {
  Warp& w = warps[static_cast<size_t>(wi)];
  if (--w.pending == 0) {
    std::vector<int> g = std::move(w.group);
    w.group.clear();
    ResumeAll(g);
    w.ready_at = std::max(w.ready_at, now() + 1);
  }
}

std::vector<int> Machine::Live(const std::vector<int>& g) const {
  std::vector<int> live;
  for (const int t : g) {
    if (!threads[static_cast<size_t>(t)].doomed) {
      live.push_back(t);
    }
  }
  return live;
}

void Machine::Doom(int t) {
  threads[static_cast<size_t>(t)].doomed = true;
}

void Machine::Wake(std::vector<int>& waiters) {
  for (const int wi : waiters) {
    Warp& w = warps[static_cast<size_t>(wi)];
    w.blocked = false;
    w.ready_at = std::max(w.ready_at, now() + 1);
  }
  waiters.clear();
}

LogEvent Machine::TxEvent(int t) const {
  const Thread& th = threads[static_cast<size_t>(t)];
  LogEvent e;
  e.thread = t;
  e.cycle = now();
  for (const auto& [a, v] : th.reads) {
    e.reads.push_back({a, v, 0});
  }
  e.writes = th.writes;
  return e;
}

std::map<uint32_t, std::vector<int>> Machine::Lines(const std::vector<int>& ts) const {
  std::map<uint32_t, std::vector<int>> lines;
  for (const int t : ts) {
    lines[threads[static_cast<size_t>(t)].lane->op().addr / static_cast<uint32_t>(cfg.line_words)]
        .push_back(t);
  }
  return lines;
}

uint64_t Machine::SectorBytes(const std::vector<int>& ts) const {
  std::vector<uint32_t> sectors;
  for (const int t : ts) {
    sectors.push_back(threads[static_cast<size_t>(t)].lane->op().addr /
                      (Interconnect::kFlitBytes / 4));
  }
  std::sort(sectors.begin(), sectors.end());
  return Interconnect::kFlitBytes *
         static_cast<uint64_t>(std::unique(sectors.begin(), sectors.end()) - sectors.begin());
}

int Machine::MemAccess(int wi, const std::vector<int>& g, bool atomic) {
  Warp& w = warps[static_cast<size_t>(wi)];
  const Op op0 = threads[static_cast<size_t>(g[0])].lane->op();
  for (const int t : g) {
    if (!InMemory(threads[static_cast<size_t>(t)].lane->op().addr)) {
      Fail(Describe(t) + ": address outside the memory of " + std::to_string(mem.size()) +
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
    const int p = icnt.PartitionOf(line * static_cast<uint32_t>(cfg.line_words));
    const uint64_t when = icnt.Route(now(), w.core, p, cfg.mem_latency);
    if (store) {
      w.stores_out += wait ? 0 : 1;
    }
    // The request carries the stores' words (a compare-and-swap its two operands).
    icnt.CountMessage(store || atomic ? ts.size() * (op0.kind == OpKind::kAtomCas ? 8 : 4) : 0);
    // The operations as issued: a store that does not wait has moved its thread on by the time
    // the partition performs it.
    std::vector<Op> ops;
    for (const int t : ts) {
      ops.push_back(threads[static_cast<size_t>(t)].lane->op());
    }
    At(when, [this, wi, ts = std::move(ts), ops = std::move(ops), store, wait, atomic] {
      for (size_t i = 0; i < ts.size(); ++i) {
        const int t = ts[i];
        Thread& th = threads[static_cast<size_t>(t)];
        const Op& op = ops[i];
        const uint32_t old = mem[op.addr];
        th.result = old;
        if (store) {
          mem[op.addr] = op.data;
          if (warps[static_cast<size_t>(wi)].in_tx) {
            th.writes.push_back({op.addr, op.data});  // serial mode: logged at its commit
          } else {
            NonTxWrite(t, op.addr, op.data, false, 0);
          }
        } else if (atomic) {
          const bool add = op.kind == OpKind::kAtomAdd;
          if (add || old == op.cmp) {
            mem[op.addr] = add ? old + op.data : op.data;
            NonTxWrite(t, op.addr, mem[op.addr], true, old);
          }
        } else if (warps[static_cast<size_t>(wi)].in_tx) {
          if (!FindLog(th.writes, op.addr) && !FindLog(th.reads, op.addr)) {
            th.reads.push_back({op.addr, old});
          }
        }
      }
      if (wait) {
        // The reply: a load's or an atomic's sectors (its threads wait at the access), a
        // serialized transaction's store none.
        ++stats.mem_replies;
        icnt.CountMessage(store ? 0 : SectorBytes(ts));
        At(now() + static_cast<uint64_t>(cfg.icnt_latency), [this, wi] { Complete(wi); });
      } else {
        --warps[static_cast<size_t>(wi)].stores_out;
      }
    });
  }
  if (!wait) {
    ResumeAll(g);
    w.ready_at = now() + 1;
  }
  return 1;
}

void Machine::NonTxWrite(int t, uint32_t addr, uint32_t value, bool atomic, uint32_t old) {
  policy->OnMemoryWritten(addr);
  policy->NonTxWrite(t, addr, value, atomic, old);
}

void Machine::BeginTry(int t) {
  Thread& th = threads[static_cast<size_t>(t)];
  th.doomed = false;
  th.iw_abort = Thread::IwAbort::kNo;
  th.si_why = Thread::SiWhy::kNone;
  th.tx_start = now();
  th.tx_ops = 0;
  th.reads.clear();
  th.writes.clear();
  th.seen.clear();
  policy->OnBeginTry(t);
  ++stats.tries;
  current = t;
  th.lane->BeginTry();
}

int Machine::PerformTxAccess(int wi, const std::vector<int>& g) {
  return threads[static_cast<size_t>(g[0])].lane->op().kind == OpKind::kStore
             ? policy->TxStore(wi, g)
             : policy->TxLoad(wi, g);
}

void Machine::Paused(int wi, uint64_t go, uint64_t pause) {
  Warp& w = warps[static_cast<size_t>(wi)];
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
  if (SimtStack* s = core_of(wi).StackOf(w); s != nullptr && !held.empty() && !s->Pause(wi, held)) {
    return;
  }
  if (!held.empty()) {
    stats.pauses += held.size();
    w.tx.erase(std::remove_if(
                   w.tx.begin(), w.tx.end(),
                   [&held](int t) { return std::find(held.begin(), held.end(), t) != held.end(); }),
               w.tx.end());
    w.paused.push_back(std::move(held));
  }
  PerformTxAccess(wi, run);
}

}  // namespace htm::gpu
