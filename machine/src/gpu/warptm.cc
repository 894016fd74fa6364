// SPDX-License-Identifier: Apache-2.0
//
// WarpTM and its early-conflict-resolution variants: see warptm.h.
#include "warptm.h"

#include <algorithm>
#include <string>

namespace htm::gpu {

using golden::IntraWarpCdIn;
using golden::LowMask;

WarpTm::WarpTm(Machine& m, bool ea, bool pg)
    : CommitUnitTm(m), ea_(ea), pg_(pg), cat_(ea || pg), tcd_on_(m.cfg.tcd_on) {
  const MachineConfig& cfg = m.cfg;
  ecr_.resize(static_cast<size_t>(cfg.cores));
  for (int c = 0; c < cfg.cores; ++c) {
    const std::string core = "core" + std::to_string(c);
    auto context = [this, c] { return EcrContext(c); };
    auto iw = m.MakeBlock<golden::IntraWarpCdModel>("htm_intra_warp_cd", core + ".iwcd", cfg.iwcd,
                                                    context);
    std::unique_ptr<EcrCore::CatInstance> cat;
    std::unique_ptr<EcrCore::PagInstance> pag;
    if (cat_) {
      cat = m.MakeBlock<golden::CatModel>("htm_cat", core + ".cat", cfg.cat, context);
    }
    if (pg_) {
      pag = m.MakeBlock<golden::PagCheckModel>("htm_pag_check", core + ".pag", cfg.pag, context);
    }
    ecr_[static_cast<size_t>(c)].ecr = std::make_unique<EcrCore>(
        cfg.iwcd, std::move(iw), &cfg.cat, std::move(cat), &cfg.pag, std::move(pag));
  }
  if (cat_) {
    for (int u = 0; u < cfg.partitions; ++u) {
      rcts_.push_back(m.MakeBlock<golden::RctModel>(
          "htm_rct", "partition" + std::to_string(u) + ".rct", cfg.rct,
          [this, u] { return m_.partitions[static_cast<size_t>(u)].Context(); }));
    }
    rct_pending_.assign(static_cast<size_t>(cfg.partitions), 0);
    rct_working_.assign(static_cast<size_t>(cfg.partitions), 0);
    cat_chan_ = std::make_unique<CatChannel>(cfg.cores, cfg.icnt_latency);
  }
  if (tcd_on_) {
    tcd_.resize(static_cast<size_t>(cfg.cores));
    for (int c = 0; c < cfg.cores; ++c) {
      tcd_[static_cast<size_t>(c)].table =
          m.MakeBlock<golden::TcdModel>("htm_tcd", "core" + std::to_string(c) + ".tcd", cfg.tcd,
                                        [this, c] { return TcdContext(c); });
    }
  }
}

std::string WarpTm::EcrContext(int c) const {
  const EcrPort& p = ecr_[static_cast<size_t>(c)];
  std::string s = "core " + std::to_string(c) + "'s early-conflict-resolution blocks: ";
  if (p.warp >= 0) {
    const Warp& w = m_.warps[static_cast<size_t>(p.warp)];
    s += "the intra-warp detection checks warp " + std::to_string(p.warp) + " (threads " +
         std::to_string(w.first) + "-" + std::to_string(w.first + 31) + "), command " +
         std::to_string(p.next) + " of " + std::to_string(p.cmds.size());
  } else {
    s += "no warp in the intra-warp detection";
  }
  if (p.pag_warp >= 0) {
    const Warp& w = m_.warps[static_cast<size_t>(p.pag_warp)];
    s += "; the Pause-and-Go check has warp " + std::to_string(p.pag_warp) + "'s access (" +
         m_.Describe(w.group.empty() ? w.first : w.group[0]) + ")";
  }
  s += "; " + std::to_string(p.queue.size()) + " warps wait to commit, " +
       std::to_string(p.pag_queue.size()) + " for the Pause-and-Go check";
  return s;
}

std::string WarpTm::TcdContext(int c) const {
  const TcdPort& p = tcd_[static_cast<size_t>(c)];
  std::string s = "core " + std::to_string(c) + "'s temporal conflict detection: ";
  if (p.warp >= 0) {
    s += "looks up warp " + std::to_string(p.warp) + "'s read-only lanes, lookup " +
         std::to_string(p.next) + " of " + std::to_string(p.checks.size());
    if (p.next < p.checks.size()) {
      s += " (word " + std::to_string(p.checks[p.next].addr) + ")";
    }
  } else {
    s += "no warp";
  }
  s += "; " + std::to_string(p.in.size()) + " writes and retirements on their way, " +
       std::to_string(p.queue.size()) + " warps waiting";
  return s;
}

void WarpTm::Start() {
  if (tcd_on_) {
    m_.serial->Gate();
  }
}

void WarpTm::FinalStats(SystemStats& s) const {
  // Early-Abort: entries the tables still hold (every transaction has retired).
  for (const auto& t : rcts_) {
    s.ea_left += t->Eval(golden::RctIn{}).used;
  }
  for (const EcrPort& p : ecr_) {
    s.ea_left += p.ecr->CatUsed();
  }
}

/// Pause-and-Go: when the warp has not diverged inside the transaction (the SIMT stack's top
/// entry is the Trans entry; the authors' simulator skips the check otherwise), the lanes wait
/// for the core's check, which pauses some of them.
int WarpTm::TxAccess(int wi, const std::vector<int>& g) {
  if (pg_) {
    Warp& w = m_.warps[static_cast<size_t>(wi)];
    std::vector<int> lanes;
    for (const int t : g) {
      if (m_.InMemory(m_.threads[static_cast<size_t>(t)].lane->op().addr)) {
        lanes.push_back(t);
      } else {
        m_.Doom(t);  // as TxLoad and TxStore would
      }
    }
    // Converged: the warp's SIMT stack has the Trans entry on top (without one, serial's: every
    // lane of the try still in the body is issuing).
    bool converged = false;
    if (const SimtStack* s = m_.core_of(wi).StackOf(w)) {
      converged = s->TopIsTrans();
    } else {
      const auto body = std::count_if(w.tx.begin(), w.tx.end(), [this](int t) {
        const Thread& th = m_.threads[static_cast<size_t>(t)];
        return !th.doomed && th.lane->op().kind != OpKind::kTxCommit;
      });
      converged = static_cast<size_t>(body) == lanes.size();
    }
    if (!lanes.empty() && converged) {
      w.pag_wait = true;
      w.group = std::move(lanes);
      ecr_[static_cast<size_t>(w.core)].pag_queue.push_back(wi);
      return 1;
    }
  }
  return m_.PerformTxAccess(wi, g);
}

void WarpTm::OnMemoryWritten(uint32_t addr) {
  if (tcd_on_) {
    TcdBroadcast(false, addr);
  }
}

/// The warp's logs first go through the core's intra-warp conflict detection, when two or more
/// lanes send a log.
void WarpTm::StartCommit(int wi) {
  const Warp& w = m_.warps[static_cast<size_t>(wi)];
  if (std::count_if(w.tx.begin(), w.tx.end(), [this](int t) { return Sends(t); }) >= 2) {
    ecr_[static_cast<size_t>(w.core)].queue.push_back(wi);
    return;
  }
  m_.SendLogs(wi);
}

bool WarpTm::TakeReadOnly(int wi, int t) {
  (void)wi;
  const Thread& th = m_.threads[static_cast<size_t>(t)];
  if (!tcd_on_ || !th.writes.empty()) {
    return false;
  }
  ++m_.stats.tcd_lanes;
  if (m_.now() < TcdStaleAt(t)) {
    m_.warps[static_cast<size_t>(wi)].tcd_lanes.push_back(t);
    return true;
  }
  ++m_.stats.tcd_stale;  // the table would call it a conflict
  return false;
}

void WarpTm::AfterSendLogs(int wi, uint64_t need) {
  Warp& w = m_.warps[static_cast<size_t>(wi)];
  if (!w.tcd_lanes.empty()) {
    w.tcd_need = need;
    w.tcd_queued = m_.now();
    ++w.pending;
    tcd_[static_cast<size_t>(w.core)].queue.push_back(wi);
  }
}

void WarpTm::Decided(Committer& cm) {
  if (tcd_on_) {
    TcdBroadcast(true, cm.cid);
  }
  CommitUnitTm::Decided(cm);
}

bool WarpTm::CoreCycle(int c) {
  bool active = StepEcr(c);
  active |= m_.cores[static_cast<size_t>(c)].SendCommitMessages();
  active |= StepTcd(c);
  return active;
}

bool WarpTm::PartitionCycle(int u, const golden::CommitUnitOut& out) {
  return cat_ && StepRct(u, out);
}

bool WarpTm::Working() const {
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

void WarpTm::NextWake(uint64_t* next) const {
  const uint64_t now = m_.now();
  for (const TcdPort& p : tcd_) {
    if (!p.in.empty()) {
      *next = std::min(*next, std::max(p.in.front().at, now));
    }
    if (p.warp < 0 && !p.queue.empty()) {
      *next =
          std::min(*next, std::max(TcdStale(m_.warps[static_cast<size_t>(p.queue.front())]), now));
    }
  }
}

// ---- Early conflict resolution ------------------------------------------------------------------

/// Core c's CAT has work (clearing, a message, deltas, a lookup).
bool WarpTm::CatActive(int c) const {
  const EcrPort& p = ecr_[static_cast<size_t>(c)];
  return !p.cat_ready || p.cat_pending > 0 || p.ecr->lookups_in_flight() > 0 ||
         cat_chan_->InFlight(c) > 0;
}

/// One cycle of core c's early-conflict-resolution blocks. The intra-warp detection takes a
/// warp's commands: Begin (its sending lanes), a Mark per write-log row, a Check per read-log
/// row and per write-log row, and End; row i holds each lane's i-th log entry. The lanes of the
/// outcome's abort mask are aborted; the others go on to the commit units. With Early-Abort or
/// Pause-and-Go the CAT takes the RCTs' messages and answers the lookups of the Pause-and-Go
/// check (first) and of the intra-warp detection (Early-Abort).
bool WarpTm::StepEcr(int c) {
  EcrPort& p = ecr_[static_cast<size_t>(c)];
  const uint64_t now = m_.now();
  if (p.warp < 0 && !p.queue.empty()) {
    p.warp = p.queue.front();
    p.queue.pop_front();
    p.cmds = IwcdCommands(p.warp);
    p.next = 0;
    p.start = now;
  }
  if (p.pag_warp < 0 && !p.pag_queue.empty()) {
    p.pag_warp = p.pag_queue.front();
    p.pag_queue.pop_front();
    p.pag_in = PagRequest(p.pag_warp);
    p.pag_start = now;
  }
  const bool cat = p.ecr->has_cat() && CatActive(c);
  if (p.warp < 0 && p.pag_warp < 0 && !cat) {
    return false;  // all idle: a cycle would change nothing
  }
  IntraWarpCdIn in;
  if (p.warp >= 0 && p.next < p.cmds.size()) {
    in = p.cmds[p.next];
  }
  in.ea_en = ea_ ? 1 : 0;
  const bool msg = cat_chan_ && cat_chan_->Ready(c, now);
  const EcrCore::Step s = p.ecr->Cycle(p.pag_in, in, msg ? &cat_chan_->Front(c) : nullptr);
  if (p.ecr->has_cat()) {
    CountCat(c, s);
  }
  if (s.pag.err || s.iw.err) {
    m_.Fail("core " + std::to_string(c) + "'s " +
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
    ++m_.stats.pag_checks;
    m_.stats.pag_cycles += now + 1 - p.pag_start;
    m_.Paused(wi, s.pag.res_go, s.pag.res_pause);
  }
  if (in.cmd_valid && s.iw.cmd_ready) {
    const auto lanes = static_cast<uint64_t>(__builtin_popcountll(in.cmd_mask));
    if (in.cmd_op == static_cast<uint64_t>(IwcdOp::kMark)) {
      m_.stats.iwcd_marks += lanes;
    } else if (in.cmd_op == static_cast<uint64_t>(IwcdOp::kCheck)) {
      m_.stats.iwcd_checks += lanes;
    }
    ++p.next;
  }
  if (p.warp >= 0 && s.iw.res_valid) {
    const int wi = p.warp;
    p.warp = -1;
    ++m_.stats.iwcd_warps;
    m_.stats.iwcd_cycles += now + 1 - p.start;
    const Warp& w = m_.warps[static_cast<size_t>(wi)];
    for (const int t : w.tx) {
      const int l = t - w.first;
      if ((s.iw.res_abort >> l) & 1) {
        m_.threads[static_cast<size_t>(t)].iw_abort =
            ((s.iw.res_iw >> l) & 1) ? Thread::IwAbort::kIntraWarp : Thread::IwAbort::kEarly;
      }
    }
    m_.SendLogs(wi);
  }
  return true;
}

/// The CAT's side of a core cycle: the message it took, its lookups, answers and deltas.
void WarpTm::CountCat(int c, const EcrCore::Step& s) {
  EcrPort& p = ecr_[static_cast<size_t>(c)];
  p.cat_ready = s.cat.ready != 0;
  if (s.lookup != EcrCore::kNone) {
    m_.stats.cat_lookups += static_cast<uint64_t>(__builtin_popcountll(s.cat_in.lkp_mask));
  }
  if (s.answered != EcrCore::kNone) {
    m_.stats.cat_hits += static_cast<uint64_t>(__builtin_popcountll(s.cat.rsp_hit));
  }
  if (s.msg_taken) {
    p.cat_pending += s.cat_in.msg_count;
    cat_chan_->Pop(c);
    // The RCT's message reaching this core: one message per receiving core (a delta is an
    // address and a signed count, 4 bytes).
    ++m_.stats.cat_messages;
    m_.icnt.CountMessage(4 * s.cat_in.msg_count);
  }
  if (s.cat.dlt_valid) {
    --p.cat_pending;
    ++m_.stats.cat_updates;
  }
  m_.stats.cat_drops += s.cat.drop_full;
}

std::vector<IntraWarpCdIn> WarpTm::IwcdCommands(int wi) const {
  const Warp& w = m_.warps[static_cast<size_t>(wi)];
  std::vector<IntraWarpCdIn> cmds;
  IntraWarpCdIn begin;
  begin.cmd_valid = 1;
  begin.cmd_op = static_cast<uint64_t>(IwcdOp::kBegin);
  size_t reads = 0, writes = 0;
  for (const int t : w.tx) {
    if (Sends(t)) {
      begin.cmd_mask |= uint64_t{1} << (t - w.first);
      reads = std::max(reads, m_.threads[static_cast<size_t>(t)].reads.size());
      writes = std::max(writes, m_.threads[static_cast<size_t>(t)].writes.size());
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
      const Thread& th = m_.threads[static_cast<size_t>(t)];
      const auto& log = write ? th.writes : th.reads;
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

/// Pause-and-Go: the check's request for warp wi's waiting access.
golden::PagCheckIn WarpTm::PagRequest(int wi) const {
  const Warp& w = m_.warps[static_cast<size_t>(wi)];
  golden::PagCheckIn in;
  in.req_valid = 1;
  in.pg_en = 1;
  in.req_write =
      m_.threads[static_cast<size_t>(w.group[0])].lane->op().kind == OpKind::kStore ? 1 : 0;
  for (const int t : w.group) {
    const auto l = static_cast<size_t>(t - w.first);
    in.req_mask |= uint64_t{1} << l;
    in.req_addr[l] =
        m_.threads[static_cast<size_t>(t)].lane->op().addr & LowMask(m_.cfg.pag.addr_w);
  }
  return in;
}

/// One cycle of unit u's RCT on the unit's event stream; its messages go to every core's CAT.
/// True while it has work.
bool WarpTm::StepRct(int u, const golden::CommitUnitOut& out) {
  golden::RctIn ri;
  ri.inc_valid = out.rct_inc_valid;
  ri.inc_addr = out.rct_inc_addr;
  ri.inc_write = out.rct_inc_write;
  ri.dec_valid = out.rct_dec_valid;
  ri.dec_addr = out.rct_dec_addr;
  ri.dec_write = out.rct_dec_write;
  m_.stats.rct_updates += ri.inc_valid + ri.dec_valid;
  golden::Instance<golden::RctPorts>& r = *rcts_[static_cast<size_t>(u)];
  const golden::RctOut ro = r.Eval(ri);
  r.Tick(ri);
  uint64_t& pending = rct_pending_[static_cast<size_t>(u)];
  pending += ro.dlt_valid;
  if (ro.msg_valid) {
    cat_chan_->Send(
        m_.now(), CatChannel::Msg(ro.msg_dlt.begin(),
                                  ro.msg_dlt.begin() + static_cast<std::ptrdiff_t>(ro.msg_count)));
    pending -= ro.msg_count;
    ++m_.stats.rct_messages;
    m_.stats.rct_deltas += ro.msg_count;
  }
  m_.stats.rct_lost += ro.lost_queue + ro.lost_full + ro.lost_sat;
  // Clearing after reset is work too.
  rct_working_[static_cast<size_t>(u)] = ro.busy != 0 || ro.ready == 0;
  return rct_working_[static_cast<size_t>(u)] || pending > 0;
}

// ---- Temporal conflict detection ----------------------------------------------------------------

/// A word written to memory (v: its address) or a commit id retired (v: the id) reaches every
/// core's table after the interconnect's latency, in the order sent.
void WarpTm::TcdBroadcast(bool retire, uint64_t v) {
  for (TcdPort& p : tcd_) {
    p.in.push_back({m_.now() + static_cast<uint64_t>(m_.cfg.icnt_latency), retire, v});
    ++m_.stats.tcd_messages;
    m_.icnt.CountMessage(0);
  }
}

/// The first queued warp may start its lookups: every commit id allocated before its commit has
/// retired, or its lanes waited so long that their first reads are stale.
bool WarpTm::TcdTurn(const TcdPort& p) const {
  if (p.warp >= 0 || p.queue.empty()) {
    return false;
  }
  const Warp& w = m_.warps[static_cast<size_t>(p.queue.front())];
  return p.retired.next() >= w.tcd_need || m_.now() >= TcdStale(w);
}

/// When the first read of every one of warp w's waiting lanes is stale (the table would call it
/// a conflict, and a time older than the table's wrap would alias to a young one).
uint64_t WarpTm::TcdStale(const Warp& w) const {
  uint64_t last = 0;
  for (const int t : w.tcd_lanes) {
    last = std::max(last, TcdStaleAt(t));
  }
  return last;
}

/// When thread t's first read becomes stale for its core's table.
uint64_t WarpTm::TcdStaleAt(int t) const {
  return m_.threads[static_cast<size_t>(t)].first_read + golden::TcdStaleAge(m_.cfg.tcd);
}

/// The lookups of warp wi's read-only lanes: per read-log row, one per chunk.
std::vector<WarpTm::TcdPort::Check> WarpTm::TcdChecks(int wi, uint64_t table_now) const {
  const Warp& w = m_.warps[static_cast<size_t>(wi)];
  const golden::TcdParams& tp = m_.cfg.tcd;
  const uint64_t mask = LowMask(tp.ts_w);
  std::vector<TcdPort::Check> checks;
  for (size_t i = 0;; ++i) {
    const size_t row = checks.size();
    bool any = false;
    for (const int t : w.tcd_lanes) {
      const Thread& th = m_.threads[static_cast<size_t>(t)];
      if (i >= th.reads.size()) {
        continue;
      }
      any = true;
      const uint32_t a = th.reads[i].first;
      const uint64_t since = th.first_read & mask;
      const auto it = std::find_if(checks.begin() + static_cast<std::ptrdiff_t>(row), checks.end(),
                                   [&](const TcdPort::Check& c) {
                                     return golden::TcdChunk(tp, c.addr) == golden::TcdChunk(tp, a);
                                   });
      const uint64_t bit = uint64_t{1} << (t - w.first);
      if (it == checks.end()) {
        checks.push_back({a, since, bit});
      } else {
        it->lanes |= bit;
        // The earlier first read (modulo the table's time: both are younger than StaleAge).
        if (((table_now - since) & mask) > ((table_now - it->since) & mask)) {
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
bool WarpTm::StepTcd(int c) {
  if (tcd_.empty()) {
    return false;
  }
  TcdPort& p = tcd_[static_cast<size_t>(c)];
  golden::Instance<golden::TcdPorts>& table = *p.table;
  const uint64_t now = m_.now();
  bool active = false;
  while (!p.in.empty() && p.in.front().at <= now && p.in.front().retire) {
    p.retired.Add(p.in.front().v, 0, [](char) {});
    p.in.pop_front();
    TcdGate();
    active = true;
  }
  const bool update = !p.in.empty() && p.in.front().at <= now;
  if (!update && p.warp < 0 && p.res < 0 && !TcdTurn(p)) {
    return active;  // an idle cycle for the table: run later, with the others, by Idle()
  }
  table.Idle(now - p.ticked);
  golden::TcdIn in;
  if (update) {
    in.upd_valid = 1;
    in.upd_addr = p.in.front().v & LowMask(m_.cfg.tcd.addr_w);
  }
  if (TcdTurn(p)) {
    p.warp = p.queue.front();
    p.queue.pop_front();
    m_.stats.tcd_wait_cycles += now - m_.warps[static_cast<size_t>(p.warp)].tcd_queued;
    p.before = p.retired.next();
    // Lanes whose first read became stale while they waited go to the commit units.
    Warp& w = m_.warps[static_cast<size_t>(p.warp)];
    std::erase_if(w.tcd_lanes, [&](int t) {
      if (now < TcdStaleAt(t)) {
        return false;
      }
      ++m_.stats.tcd_stale;
      m_.SendLog(p.warp, t);
      return true;
    });
    p.checks = TcdChecks(p.warp, table.Eval(golden::TcdIn{}).now);
    p.next = p.answered = 0;
    p.start = now;
  }
  if (p.warp >= 0 && p.next < p.checks.size()) {
    in.chk_valid = 1;
    in.chk_addr = p.checks[p.next].addr & LowMask(m_.cfg.tcd.addr_w);
    in.chk_since = p.checks[p.next].since;
  }
  const golden::TcdOut out = table.Eval(in);
  if ((out.res_valid != 0) != (p.res >= 0)) {
    m_.Fail("core " + std::to_string(c) + "'s temporal conflict detection answered out of turn");
    return true;
  }
  if (out.res_valid) {
    p.checks[static_cast<size_t>(p.res)].conflict = out.res_conflict != 0;
    ++p.answered;
    p.res = -1;
  }
  if (in.upd_valid && out.upd_ready) {
    p.in.pop_front();
    ++m_.stats.tcd_updates;
  }
  if (in.chk_valid && out.chk_ready) {
    p.res = static_cast<int>(p.next++);
    ++m_.stats.tcd_checks;
  }
  table.Tick(in);
  p.ticked = now + 1;
  if (p.warp >= 0 && p.answered == p.checks.size()) {
    FinishTcd(c);
  }
  return true;
}

/// Core c's lookups of a warp are answered: its lanes whose chunks were not written since their
/// first read commit here; the others go to the commit units.
void WarpTm::FinishTcd(int c) {
  TcdPort& p = tcd_[static_cast<size_t>(c)];
  const int wi = p.warp;
  p.warp = -1;
  Warp& w = m_.warps[static_cast<size_t>(wi)];
  m_.stats.tcd_walk_cycles += m_.now() + 1 - p.start;
  uint64_t failed = 0;
  for (const TcdPort::Check& k : p.checks) {
    failed |= k.conflict ? k.lanes : 0;
  }
  for (const int t : w.tcd_lanes) {
    if ((failed >> (t - w.first)) & 1) {
      ++m_.stats.tcd_conflicts;
      m_.SendLog(wi, t);
    } else {
      ++m_.stats.tcd_commits;
      m_.serial->Before(p.before, m_.TxEvent(t));
    }
  }
  w.tcd_lanes.clear();
  TcdGate();
  if (--w.pending == 0) {
    m_.FinishCommit(wi);
  }
}

/// The serialization replay may pass every commit id that every core knows retired, but not the
/// place of the lanes being looked up.
void WarpTm::TcdGate() {
  uint64_t gate = UINT64_MAX;
  for (const TcdPort& p : tcd_) {
    gate = std::min(gate, p.warp >= 0 ? p.before : p.retired.next());
  }
  m_.serial->Advance(gate);
}

}  // namespace htm::gpu
