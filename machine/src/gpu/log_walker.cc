// SPDX-License-Identifier: Apache-2.0
//
// The commit path of a SIMT core (KILO TM's log walker): a finished try's lanes get commit ids,
// their logs go to the commit units one message per link and cycle, the units' replies are
// gathered into each lane's outcome, and the warp goes on (or retries) once every lane is
// decided. The TM policy decides which lanes send what. See machine.h.
#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "machine.h"
#include "tm_policy.h"

namespace htm::gpu {

void Machine::StartCommit(int wi) {
  Warp& w = warps[static_cast<size_t>(wi)];
  w.committing = true;
  w.pending = 0;
  policy->StartCommit(wi);
}

void Machine::SendLogs(int wi) {
  Warp& w = warps[static_cast<size_t>(wi)];
  const uint64_t need = next_cid;  // the commit ids allocated before this commit
  for (const int t : w.tx) {
    if (!policy->Sends(t) || policy->TakeReadOnly(wi, t)) {
      continue;
    }
    SendLog(wi, t);
  }
  policy->AfterSendLogs(wi, need);
  if (w.pending == 0) {
    FinishCommit(wi);
  }
}

void Machine::SendLog(int wi, int t) {
  Warp& w = warps[static_cast<size_t>(wi)];
  Thread& th = threads[static_cast<size_t>(t)];
  auto cm = std::make_unique<Committer>();
  cm->thread = t;
  cm->warp = wi;
  cm->core = w.core;
  cm->cid = next_cid++;
  cm->links.resize(static_cast<size_t>(cfg.partitions));
  std::vector<std::vector<Msg>> words(static_cast<size_t>(cfg.partitions));
  policy->Validations(t, &words);
  for (const auto& [a, v] : th.writes) {
    const auto p = static_cast<size_t>(icnt.PartitionOf(a));
    words[p].push_back({CuMsg::kWriteSet, a, v});
    cm->links[p].writes = true;
  }
  for (int u = 0; u < cfg.partitions; ++u) {
    const auto& wu = words[static_cast<size_t>(u)];
    if (wu.size() > static_cast<size_t>(cfg.cu.buf_words)) {
      Fail(Describe(t) + ": the transaction begun at line " + PcText(th.lane->tx_pc()) +
           " has a log of " + std::to_string(wu.size()) + " words for commit unit " +
           std::to_string(u) + ", whose buffer holds " + std::to_string(cfg.cu.buf_words) +
           " (BufWords): it can never commit");
      return;
    }
    Committer::Link& l = cm->links[static_cast<size_t>(u)];
    l.involved = !wu.empty();
    l.q.assign(wu.begin(), wu.end());
    l.q.push_back({l.involved ? CuMsg::kDoneFill : CuMsg::kSkip});
  }
  by_cid[cm->cid & golden::LowMask(cfg.cu.cid_w)] = cm.get();
  w.committers.push_back(std::move(cm));
  ++w.pending;
}

const Msg* SimtCore::Wants(const Committer& cm, int u) const {
  const Committer::Link& l = cm.links[static_cast<size_t>(u)];
  if (l.need_alloc) {
    static const Msg kAlloc{CuMsg::kAlloc};
    return (!l.alloc_wait && l.retry_at <= m_.now()) ? &kAlloc : nullptr;
  }
  return l.q.empty() ? nullptr : &l.q.front();
}

bool SimtCore::SendCommitMessages() {
  bool sent = false;
  const uint64_t now = m_.now();
  for (int u = 0; u < m_.cfg.partitions; ++u) {
    Committer* best = nullptr;
    for (const int wi : resident) {
      for (const auto& cm : m_.warps[static_cast<size_t>(wi)].committers) {
        if (Wants(*cm, u) != nullptr && (best == nullptr || cm->cid < best->cid)) {
          best = cm.get();
        }
      }
    }
    if (best == nullptr) {
      continue;
    }
    uint64_t& link = m_.icnt.link_slot(id_, u);
    if (link > now) {
      continue;  // the link carries a memory request this cycle
    }
    link = now + 1;
    Committer::Link& l = best->links[static_cast<size_t>(u)];
    const Msg msg = *Wants(*best, u);
    if (l.need_alloc) {
      l.alloc_wait = true;
    } else {
      l.q.pop_front();
    }
    ++m_.stats.cu_messages;
    m_.icnt.CountMessage(msg.type == CuMsg::kReadSet || msg.type == CuMsg::kWriteSet ? 8 : 0);
    const uint64_t cid = best->cid;
    const int c = id_;
    m_.At(now + static_cast<uint64_t>(m_.cfg.icnt_latency), [this, u, msg, cid, c] {
      m_.partitions[static_cast<size_t>(u)].Deliver({msg, cid, c});
    });
    sent = true;
  }
  return sent;
}

void Machine::Reply(int u, uint64_t cid_low, int kind, bool cap) {
  const auto it = by_cid.find(cid_low);
  if (it == by_cid.end()) {
    Fail("commit unit " + std::to_string(u) + " replied for commit id " + std::to_string(cid_low) +
         " (reply " + std::to_string(kind) + "), which no core is committing");
    return;
  }
  Committer& cm = *it->second;
  Committer::Link& l = cm.links[static_cast<size_t>(u)];
  if (kind < 0) {
    l.alloc_wait = false;
    if (kind == -2) {
      ++stats.cu_alloc_fails;
      l.retry_at = now() + static_cast<uint64_t>(cfg.alloc_retry);
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
      if (pass) {
        pass = policy->Passed(cm);
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

void Machine::Decide(Committer& cm) {
  if (cm.decided) {
    return;
  }
  for (const auto& x : cm.links) {
    if (x.involved && (x.rep == 0 || x.done_wait)) {
      return;
    }
  }
  cm.decided = true;
  policy->Decided(cm);
  Warp& w = warps[static_cast<size_t>(cm.warp)];
  if (--w.pending == 0) {
    FinishCommit(cm.warp);
  }
}

void Machine::FinishCommit(int wi) {
  Warp& w = warps[static_cast<size_t>(wi)];
  std::unordered_map<int, bool> outcome;
  // A committer waits until its messages have left: the Pass/Fail outcomes, and the Alloc and
  // Skip of a unit it sent no entry to (every unit must see every commit id), whose replies still
  // come.
  for (const auto& cm : w.committers) {
    for (const auto& x : cm->links) {
      if (!x.q.empty() || x.alloc_wait) {
        At(now() + 1, [this, wi] { FinishCommit(wi); });
        return;
      }
    }
  }
  std::unordered_set<int> capacity;
  for (const auto& cm : w.committers) {
    outcome[cm->thread] = cm->committed;
    if (cm->capacity) {
      capacity.insert(cm->thread);
    }
    by_cid.erase(cm->cid & golden::LowMask(cfg.cu.cid_w));
  }
  w.committers.clear();
  bool any_abort = false;
  std::vector<int> failed;
  for (const int t : w.tx) {
    Thread& th = threads[static_cast<size_t>(t)];
    const auto it = outcome.find(t);
    bool ok =
        !th.doomed && th.iw_abort == Thread::IwAbort::kNo && (it == outcome.end() || it->second);
    if (ok && it == outcome.end()) {
      ok = policy->CommitsAtCore(t);
    }
    current = t;
    if (ok) {
      ++stats.commits;
      stats.read_only_commits += it == outcome.end() ? 1 : 0;
      stats.tx_cycles += now() - th.tx_start;
      th.lane->CommitTry();
      Settle(t);
    } else {
      any_abort = true;
      failed.push_back(t);
      ++stats.aborts;
      (th.si_why == Thread::SiWhy::kLoop || th.si_why == Thread::SiWhy::kMissed ? stats.aborts_loop
       : th.si_why == Thread::SiWhy::kSingleWriter  ? stats.aborts_single_writer
       : th.si_why == Thread::SiWhy::kFull          ? stats.aborts_si_full
       : th.doomed                                  ? stats.aborts_zombie
       : th.iw_abort == Thread::IwAbort::kIntraWarp ? stats.aborts_intra_warp
       : th.iw_abort == Thread::IwAbort::kEarly     ? stats.aborts_early
       : capacity.count(t) != 0                     ? stats.aborts_capacity
                                                    : stats.aborts_validation) += 1;
      stats.wasted_cycles += now() - th.tx_start;
      th.lane->AbortTry();
    }
    policy->OnTryEnd(t, ok);
  }
  policy->OnWarpTryEnd(wi);
  w.tx.clear();
  w.committing = false;
  w.ready_at = now() + 1;
  w.tx_aborts = w.tx_aborts || any_abort;
  if (SimtStack* s = core_of(wi).StackOf(w);
      s != nullptr && !s->Commit(wi, failed, !w.paused.empty())) {
    return;
  }
  if (!w.paused.empty()) {
    // Pause-and-Go: the latest paused group resumes its tries at the paused access.
    w.tx = std::move(w.paused.back());
    w.paused.pop_back();
    return;
  }
  w.in_tx = false;
  SimtCore& core = cores[static_cast<size_t>(w.core)];
  if (!w.tx_aborts && w.holds_slot) {
    w.holds_slot = false;
    --core.tx_warps;
    Wake(core.slot_waiters);
  }
  w.tx_aborts = false;
}

}  // namespace htm::gpu
