// SPDX-License-Identifier: Apache-2.0
//
// The TM policies' defaults, serial, the fine-grained-lock baseline and KILO TM: see tm_policy.h.
#include "tm_policy.h"

#include <algorithm>

#include "sitm.h"
#include "warptm.h"

namespace htm::gpu {

std::unique_ptr<TmPolicy> TmPolicy::Make(Machine& m, TmMode tm) {
  switch (tm) {
    case TmMode::kSerial:
      return std::make_unique<SerialTm>(m);
    case TmMode::kFgl:
      return std::make_unique<LockBaseline>(m);
    case TmMode::kKiloTm:
      return std::make_unique<CommitUnitTm>(m);
    case TmMode::kWarpTm:
      return std::make_unique<WarpTm>(m, /*ea=*/false, /*pg=*/false);
    case TmMode::kWarpTmEa:
      return std::make_unique<WarpTm>(m, /*ea=*/true, /*pg=*/false);
    case TmMode::kWarpTmPg:
      return std::make_unique<WarpTm>(m, /*ea=*/false, /*pg=*/true);
    case TmMode::kWarpTmEaPg:
      return std::make_unique<WarpTm>(m, /*ea=*/true, /*pg=*/true);
    case TmMode::kSitmOracle:
      return std::make_unique<SnapshotTm>(m);
    case TmMode::kSitm:
      return std::make_unique<SitmTs>(m);
  }
  return nullptr;
}

// ---- Defaults -----------------------------------------------------------------------------------

Task TmPolicy::Kernel(Lane& l) {
  return m_.workload.Kernel(l);
}

void TmPolicy::TxCandidates(const Warp& w, std::vector<int>* cand) const {
  for (const int t : w.tx) {
    const Thread& th = m_.threads[static_cast<size_t>(t)];
    if (!th.doomed && th.lane->op().kind != OpKind::kTxCommit) {
      cand->push_back(t);
    }
  }
}

int TmPolicy::BodyDone(int wi) {
  m_.StartCommit(wi);
  return 1;
}

void TmPolicy::TryTooLong(int t) {
  m_.Doom(t);
}

int TmPolicy::TxAccess(int wi, const std::vector<int>& g) {
  return m_.PerformTxAccess(wi, g);
}

void TmPolicy::NonTxWrite(int t, uint32_t addr, uint32_t value, bool atomic, uint32_t old) {
  m_.serial->Write(t, m_.now(), addr, value, atomic, old);
}

bool TmPolicy::Sends(int t) const {
  const Thread& th = m_.threads[static_cast<size_t>(t)];
  return !th.doomed && th.iw_abort == Thread::IwAbort::kNo &&
         !(th.reads.empty() && th.writes.empty());
}

void TmPolicy::StartCommit(int wi) {
  m_.SendLogs(wi);
}

void TmPolicy::Validations(int t, std::vector<std::vector<Msg>>* words) const {
  for (const auto& [a, v] : m_.threads[static_cast<size_t>(t)].reads) {
    (*words)[static_cast<size_t>(m_.icnt.PartitionOf(a))].push_back({CuMsg::kReadSet, a, v});
  }
}

void TmPolicy::Decided(Committer& cm) {
  m_.serial->Decided(cm.cid, cm.committed, m_.TxEvent(cm.thread));
}

// ---- serial -------------------------------------------------------------------------------------

int SerialTm::TxBegin(int wi, const std::vector<int>& g) {
  Warp& w = m_.warps[static_cast<size_t>(wi)];
  if (w.stores_out > 0) {
    return 0;  // the warp's earlier stores are performed before its transaction begins
  }
  if (token_ >= 0 && token_ != wi) {
    ++m_.stats.tx_limit_stalls;
    w.blocked = true;  // woken when the token is released
    waiters_.push_back(wi);
    return 0;
  }
  token_ = wi;
  w.in_tx = true;
  w.serial_wait.assign(g.begin(), g.end());
  w.serial_active = -1;
  Next(wi);
  return 1;
}

void SerialTm::TxCandidates(const Warp& w, std::vector<int>* cand) const {
  if (w.serial_active >= 0 &&
      m_.threads[static_cast<size_t>(w.serial_active)].lane->op().kind != OpKind::kTxCommit) {
    cand->push_back(w.serial_active);
  }
}

int SerialTm::BodyDone(int wi) {
  return Next(wi) ? 1 : 0;
}

void SerialTm::TryTooLong(int t) {
  // Alone, so not a zombie: an endless body.
  m_.Fail(m_.Describe(t) + ": the transaction body begun at line " +
          PcText(m_.threads[static_cast<size_t>(t)].lane->tx_pc()) + " has not finished after " +
          std::to_string(m_.cfg.max_tx_ops) + " operations");
}

bool SerialTm::Next(int wi) {
  Warp& w = m_.warps[static_cast<size_t>(wi)];
  if (w.serial_active >= 0) {
    const int t = w.serial_active;
    Thread& th = m_.threads[static_cast<size_t>(t)];
    if (th.lane->op().kind != OpKind::kTxCommit) {
      return false;
    }
    m_.serial->Decided(cid_++, true, m_.TxEvent(t));
    ++m_.stats.commits;
    m_.stats.tx_cycles += m_.now() - th.tx_start;
    m_.current = t;
    th.lane->CommitTry();
    m_.Settle(t);
    w.serial_active = -1;
  }
  if (w.serial_wait.empty()) {
    w.in_tx = false;
    token_ = -1;
    m_.Wake(waiters_);
    w.ready_at = m_.now() + 1;
    return true;
  }
  w.serial_active = w.serial_wait.front();
  w.serial_wait.pop_front();
  m_.BeginTry(w.serial_active);
  w.ready_at = m_.now() + 1;
  return true;
}

// ---- fgl ----------------------------------------------------------------------------------------

Task LockBaseline::Kernel(Lane& l) {
  return m_.workload.LockKernel(l);
}

int LockBaseline::TxBegin(int wi, const std::vector<int>& g) {
  (void)wi;
  m_.Fail(m_.Describe(g[0]) + ": a transaction in the fine-grained-lock kernel");
  return 1;
}

int LockBaseline::TxLoad(int wi, const std::vector<int>& g) {
  return TxBegin(wi, g);
}
int LockBaseline::TxStore(int wi, const std::vector<int>& g) {
  return TxBegin(wi, g);
}

// ---- KILO TM ------------------------------------------------------------------------------------

int CommitUnitTm::TxBegin(int wi, const std::vector<int>& g) {
  Warp& w = m_.warps[static_cast<size_t>(wi)];
  if (w.stores_out > 0) {
    return 0;  // the warp's earlier stores are performed before its transaction begins
  }
  SimtCore& core = m_.cores[static_cast<size_t>(w.core)];
  if (!w.holds_slot) {
    if (core.tx_warps >= m_.cfg.tx_warps_per_core) {
      ++m_.stats.tx_limit_stalls;
      w.blocked = true;  // woken when a slot of the core is released
      core.slot_waiters.push_back(wi);
      return 0;
    }
    ++core.tx_warps;
    w.holds_slot = true;
  }
  if (!Admit(wi)) {
    return 0;
  }
  w.in_tx = true;
  w.tx = g;
  for (const int t : g) {
    m_.BeginTry(t);
  }
  w.ready_at = m_.now() + 1;
  return 1;
}

uint32_t CommitUnitTm::LoadFromMemory(int t, uint32_t a) {
  (void)t;
  return m_.mem[a];
}

int CommitUnitTm::TxLoad(int wi, const std::vector<int>& g) {
  Warp& w = m_.warps[static_cast<size_t>(wi)];
  std::vector<int> to_mem;
  for (const int t : g) {
    Thread& th = m_.threads[static_cast<size_t>(t)];
    const uint32_t a = th.lane->op().addr;
    if (!m_.InMemory(a)) {
      m_.Doom(t);
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
  const std::vector<int> live = m_.Live(g);
  if (to_mem.empty()) {
    m_.ResumeAll(live);
    w.ready_at = m_.now() + 1;
    return 1;
  }
  for (const int t : to_mem) {
    Thread& th = m_.threads[static_cast<size_t>(t)];
    th.first_read = th.reads.empty() ? m_.now() : th.first_read;
  }
  auto lines = m_.Lines(to_mem);
  w.pending = static_cast<int>(lines.size());
  w.group = live;
  for (auto& [line, ts] : lines) {
    const int p = m_.icnt.PartitionOf(line * static_cast<uint32_t>(m_.cfg.line_words));
    m_.icnt.CountMessage(0);
    m_.At(m_.icnt.Route(m_.now(), w.core, p, m_.cfg.mem_latency), [this, wi, ts = std::move(ts)] {
      for (const int t : ts) {
        Thread& th = m_.threads[static_cast<size_t>(t)];
        const uint32_t a = th.lane->op().addr;
        th.result = LoadFromMemory(t, a);
        th.reads.push_back({a, th.result});
      }
      ++m_.stats.mem_replies;
      m_.icnt.CountMessage(m_.SectorBytes(ts));  // (the threads wait at the load)
      m_.At(m_.now() + static_cast<uint64_t>(m_.cfg.icnt_latency), [this, wi] { m_.Complete(wi); });
    });
  }
  return 1;
}

int CommitUnitTm::TxStore(int wi, const std::vector<int>& g) {
  for (const int t : g) {
    Thread& th = m_.threads[static_cast<size_t>(t)];
    const Op& op = th.lane->op();
    if (!m_.InMemory(op.addr)) {
      m_.Doom(t);
      continue;
    }
    if (auto* hit = FindLog(th.writes, op.addr)) {
      hit->second = op.data;
    } else {
      th.writes.push_back({op.addr, op.data});
      OnFirstWrite(t, op.addr);
    }
  }
  m_.ResumeAll(m_.Live(g));
  m_.warps[static_cast<size_t>(wi)].ready_at = m_.now() + 1;
  return 1;
}

}  // namespace htm::gpu
