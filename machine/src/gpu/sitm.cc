// SPDX-License-Identifier: Apache-2.0
//
// Snapshot isolation's TM policies: see sitm.h.
#include "sitm.h"

#include <algorithm>
#include <optional>

#include "block_op.h"

namespace htm::gpu {

// ---- SITM_Oracle --------------------------------------------------------------------------------

void SnapshotTm::Start() {
  smem_ = std::make_unique<SnapshotMemory>(m_.mem, m_.cfg.vit.versions);
  vt_ = std::make_unique<VersionTable>(m_, m_.mem.size());
  graph_ = std::make_unique<SiGraph>();
}

/// The end of the run: the log in a topological order of the dependency graph, each read naming
/// the event whose version it returned; a cycle is a write-skew anomaly let through.
void SnapshotTm::Finish() {
  std::vector<int64_t> order;
  std::string cycle;
  if (!graph_->Order(&order, &cycle)) {
    m_.Fail("snapshot isolation committed a dependency cycle (write skew): " + cycle);
    return;
  }
  std::vector<int64_t> id(graph_->size(), -1);
  for (const int64_t n : order) {
    id[static_cast<size_t>(n)] = static_cast<int64_t>(m_.serial->events());
    LogEvent e = graph_->event(n);
    const std::vector<int64_t>& seen = graph_->seen(n);
    for (size_t i = 0; i < e.reads.size(); ++i) {
      e.reads[i].writer = seen[i] < 0 ? -1 : id[static_cast<size_t>(seen[i])];
    }
    m_.serial->Replay(std::move(e));
  }
}

void SnapshotTm::FinalStats(SystemStats& s) const {
  s.si_graph_edges = graph_->edges();
  s.si_vit_regions = static_cast<uint64_t>(vt_->regions());
  s.si_vit_ops = vt_->ops();
}

void SnapshotTm::OnBeginTry(int t) {
  Thread& th = m_.threads[static_cast<size_t>(t)];
  th.snap = smem_->newest();
  if (smem_->Acquire(th.snap)) {
    vt_->Hold(th.snap);
  }
}

uint32_t SnapshotTm::LoadFromMemory(int t, uint32_t a) {
  Thread& th = m_.threads[static_cast<size_t>(t)];
  vt_->Translate(a, th.snap);  // the table finds the version (the model's value is checked)
  const SnapshotMemory::Version v = smem_->At(a, th.snap);  // the version of the try's snapshot
  th.seen.push_back(v.node);
  return v.value;
}

/// A non-transactional store or atomic: a node of the dependency graph and a version of the
/// newest snapshot (such writes are ordered after the commit ids given out so far; the replay
/// flags one that races with a transaction's commit).
void SnapshotTm::NonTxWrite(int t, uint32_t addr, uint32_t value, bool atomic, uint32_t old) {
  LogEvent e;
  e.kind = LogEvent::Kind::kWrite;
  e.thread = t;
  e.cycle = m_.now();
  WordLog reads, writes = {{addr, value}};
  std::vector<int64_t> seen;
  if (atomic) {
    reads.push_back({addr, old});
    seen.push_back(smem_->At(addr, UINT64_MAX).node);
    e.reads.push_back({addr, old, 0});
  }
  e.writes = writes;
  const SiGraph::Candidate c{{m_.next_cid, ++write_seq_}, &reads, &seen, &writes};
  smem_->WriteNow(addr, value, graph_->Add(c, std::move(e)));
}

/// The write set only: a read-only try commits at the core.
bool SnapshotTm::Sends(int t) const {
  const Thread& th = m_.threads[static_cast<size_t>(t)];
  return !th.doomed && !th.writes.empty();
}

/// Write-write only: each written word is validated against the value its snapshot had, so a
/// unit fails the try when a commit since its snapshot changed the word.
void SnapshotTm::Validations(int t, std::vector<std::vector<Msg>>* words) const {
  const Thread& th = m_.threads[static_cast<size_t>(t)];
  for (const auto& [a, v] : th.writes) {
    (*words)[static_cast<size_t>(m_.icnt.PartitionOf(a))].push_back(
        {CuMsg::kReadSet, a, smem_->At(a, th.snap).value});
  }
}

bool SnapshotTm::Passed(Committer& cm) {
  // (A try aborted meanwhile, by a timestamp overflow, fails.)
  cm.node = m_.threads[static_cast<size_t>(cm.thread)].doomed
                ? -1
                : Commit(cm.thread, SiGraph::Key{cm.cid + 1, 0});
  return cm.node >= 0;
}

/// A committer is decided: its writes join the next snapshot once every older commit id is
/// decided (a snapshot holds a prefix of the commit order, as the units wrote it).
void SnapshotTm::Decided(Committer& cm) {
  pending_.Add(cm.cid,
               cm.committed
                   ? std::make_pair(cm.node, m_.threads[static_cast<size_t>(cm.thread)].writes)
                   : std::make_pair(int64_t{-1}, WordLog{}),
               [this](std::pair<int64_t, WordLog> x) {
                 if (x.first >= 0) {
                   ready_.push_back(std::move(x));
                 }
               });
  graph_->SetHorizon(SiGraph::Key{pending_.next(), 0});
}

bool SnapshotTm::CommitsAtCore(int t) {
  // A read-only try: the graph decides here.
  return m_.threads[static_cast<size_t>(t)].reads.empty() || Commit(t, SiGraph::Key{}) >= 0;
}

void SnapshotTm::OnTryEnd(int t, bool committed) {
  (void)committed;
  const uint64_t snap = m_.threads[static_cast<size_t>(t)].snap;
  if (smem_->Release(snap)) {
    vt_->Drop(snap);
  }
}

void SnapshotTm::OnWarpTryEnd(int wi) {
  (void)wi;
  Publish();
}

int64_t SnapshotTm::Commit(int t, SiGraph::Key key) {
  Thread& th = m_.threads[static_cast<size_t>(t)];
  const SiGraph::Candidate c{key, &th.reads, &th.seen, &th.writes};
  if (graph_->ClosesCycle(c)) {
    LoopAtCommit(th);
    return -1;
  }
  LogEvent e = m_.TxEvent(t);
  e.cid = key.major == 0 ? 0 : key.major - 1;
  const int64_t node = graph_->Add(c, std::move(e));
  OnCommitted(t, node);
  return node;
}

/// A warp's commit is complete, or snapshots were released: the commits ready become the newest
/// snapshot, when a version is free.
void SnapshotTm::Publish() {
  if (ready_.empty()) {
    return;
  }
  if (!smem_->CanPublish()) {
    ++m_.stats.si_version_waits;
    return;
  }
  smem_->Publish(ready_);
  vt_->Publish(smem_->newest(), ready_);
  OnPublished(ready_);
  ready_.clear();
  ++m_.stats.si_snapshots;
}

// ---- SITM_TS: the Writer Table, the Reader List, post-dating ----------------------------------
// Transaction ids (post-dating slots) come from a pool. A try takes one at its TX_Begin; an
// aborted try's entries leave the tables and its id returns at once. A committed try stays (its
// entries, its id, its slot's committed timestamps) while a running or later try could still
// close a cycle through it (Retire), then leaves as the paper's removal "once a transaction
// passes the commit" would have it (docs/htmsim.md, "SITM_TS").

void SitmTs::Start() {
  SnapshotTm::Start();
  auto context = [this] { return TableContext(); };
  wt_ = m_.MakeBlock<golden::WriterTableModel>("htm_writer_table", "writer_table", m_.cfg.wt,
                                               context);
  rl_ = m_.MakeBlock<golden::ReaderListModel>("htm_reader_list", "reader_list", m_.cfg.rl, context);
  pd_ = m_.MakeBlock<golden::PostdateModel>("htm_postdate", "postdate", m_.cfg.pd, context);
  for (int id = m_.cfg.pd.num_tx - 1; id >= 0; --id) {
    free_ids_.push_back(id);
  }
}

bool SitmTs::Admit(int wi) {
  Warp& w = m_.warps[static_cast<size_t>(wi)];
  if (tx_warps_ > 0 && (full_ || throttle_)) {
    // A table was full (4.3: abort and wait); after a refusal, warps begin one at a time until
    // one commits without a refusal, so some try always completes.
    ++m_.stats.tx_limit_stalls;
    w.blocked = true;
    waiters_.push_back(wi);
    return false;
  }
  ++tx_warps_;
  return true;
}

void SitmTs::OnBeginTry(int t) {
  SnapshotTm::OnBeginTry(t);
  Begin(t);
}

uint32_t SitmTs::LoadFromMemory(int t, uint32_t a) {
  const uint32_t v = SnapshotTm::LoadFromMemory(t, a);
  if (!m_.threads[static_cast<size_t>(t)].doomed) {
    Read(t, a);
  }
  return v;
}

void SitmTs::OnFirstWrite(int t, uint32_t a) {
  if (!m_.threads[static_cast<size_t>(t)].doomed) {  // (an earlier lane may have aborted it)
    Write(t, a);
  }
}

void SitmTs::LoopAtCommit(Thread& th) {
  // A cycle post-dating did not report, which the model counts and, having the exact graph,
  // aborts (the hardware has no such check).
  th.si_why = Thread::SiWhy::kMissed;
  ++m_.stats.si_loops_missed;
}

/// The try ended: an aborted one leaves the tables and frees its id.
void SitmTs::OnTryEnd(int t, bool committed) {
  Thread& th = m_.threads[static_cast<size_t>(t)];
  if (committed || th.si_id < 0) {
    th.si_id = -1;
  } else {
    Postdate(PdOp::kAbort, th.si_id, 0, -1);
    Leave(th.si_id, th.rl_words, th.wt_words);
    th.si_id = -1;
  }
  SnapshotTm::OnTryEnd(t, committed);
}

void SitmTs::OnWarpTryEnd(int wi) {
  SnapshotTm::OnWarpTryEnd(wi);
  Retire();
  --tx_warps_;
  const Warp& w = m_.warps[static_cast<size_t>(wi)];
  throttle_ = throttle_ && std::any_of(w.tx.begin(), w.tx.end(), [this](int t) {
                return m_.threads[static_cast<size_t>(t)].si_why == Thread::SiWhy::kFull;
              });
  m_.Wake(waiters_);
}

/// Thread t's try committed as graph node `node`: its slot is marked committed and its entries
/// are kept until Retire lets them go.
void SitmTs::OnCommitted(int t, int64_t node) {
  Thread& th = m_.threads[static_cast<size_t>(t)];
  Postdate(PdOp::kCommit, th.si_id, 0, -1);
  // A read-only transaction is placed just after its snapshot; a writer when it is published.
  Retained r{th.snap, th.writes.empty() ? th.snap + 1 : UINT64_MAX, node, th.rl_words, th.wt_words};
  retained_[th.si_id] = std::move(r);
  by_node_[node] = th.si_id;
  m_.stats.si_retained_max = std::max<uint64_t>(m_.stats.si_retained_max, retained_.size());
  th.si_id = -1;  // the id now belongs to the committed transaction
}

void SitmTs::OnPublished(const std::vector<std::pair<int64_t, WordLog>>& txs) {
  for (const auto& [node, writes] : txs) {
    if (const auto it = by_node_.find(node); it != by_node_.end()) {
      retained_[it->second].pub = smem_->newest();
    }
  }
}

/// A post-dating operation through the unit's ports, run to its result; a loop or an overflow
/// aborts thread t (the access's maker).
void SitmTs::Postdate(PdOp op, int a, int b, int t) {
  op_ = "post-dating " + std::string(ToString(op)) + " of slots " + std::to_string(a) + ", " +
        std::to_string(b) + (t >= 0 ? " for " + m_.Describe(t) : "");
  golden::PostdateIn in;
  in.op_valid = 1;
  in.op_kind = static_cast<uint64_t>(op);
  in.op_a = static_cast<uint64_t>(a);
  in.op_b = static_cast<uint64_t>(b);
  const std::optional<golden::PostdateOut> res = RunToResult(*pd_, in, true);
  if (!res) {
    m_.Fail("the post-dating unit gave no result");
    return;
  }
  const golden::PostdateOut& r = *res;
  if (r.res_err) {
    m_.Fail("the post-dating unit refused operation " + std::string(ToString(op)) + " on slots " +
            std::to_string(a) + ", " + std::to_string(b));
    return;
  }
  ++m_.stats.si_pd_ops;
  if (op == PdOp::kEdge) {
    ++m_.stats.si_pd_edges;
  }
  if (r.res_ovf) {
    // The logical timestamps ran out: every running try aborts, and the unit restarts its
    // table (4.3; it sweeps the slots before it takes the next operation).
    ++m_.stats.si_pd_overflows;
    for (Thread& th : m_.threads) {
      if (th.si_id >= 0 && !th.doomed) {
        Abort(th, Thread::SiWhy::kFull);
      }
    }
    return;
  }
  if (r.res_loop && t >= 0) {
    Abort(m_.threads[static_cast<size_t>(t)], Thread::SiWhy::kLoop);
  }
}

SitmTs::RlAnswer SitmTs::ReaderOp(RlOp kind, uint32_t addr, int tx) {
  op_ = "Reader List " + std::string(ToString(kind)) + " of word " + std::to_string(addr) +
        " for transaction id " + std::to_string(tx);
  golden::ReaderListIn in;
  in.op_valid = 1;
  in.op_kind = static_cast<uint64_t>(kind);
  in.op_addr = addr;
  in.op_tx = static_cast<uint64_t>(tx);
  RlAnswer a;
  const std::optional<golden::ReaderListOut> res =
      RunToResult(*rl_, in, true, [this, &a](const golden::ReaderListOut& out) {
        ++m_.stats.si_rl_cycles;
        if (out.id_valid) {
          a.ids.push_back(out.id);
        }
      });
  if (!res) {
    m_.Fail("the Reader List gave no result");
    return a;
  }
  a.res = *res;
  ++m_.stats.si_rl_ops;
  m_.stats.si_rl_writes += (kind == RlOp::kInsert && a.res.res_inserted != 0) ||
                                   (kind == RlOp::kRemove && a.res.res_found != 0)
                               ? 1
                               : 0;
  return a;
}

std::string SitmTs::TableContext() const {
  return "snapshot isolation's tables: " + (op_.empty() ? std::string("no operation") : op_);
}

/// The try of `th` aborts at once (5: the loop result goes back to the access's maker): it stops,
/// its entries leave the tables, and its warp's commit counts the abort.
void SitmTs::Abort(Thread& th, Thread::SiWhy why) {
  if (why == Thread::SiWhy::kFull) {
    full_ = throttle_ = true;
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
golden::WriterTableOut SitmTs::WriterOp(htm::WtOp kind, uint32_t addr, int tx) {
  golden::WriterTableIn in;
  in.op_valid = 1;
  in.op_kind = static_cast<uint64_t>(kind);
  in.op_addr = addr;
  in.op_tx = static_cast<uint64_t>(tx);
  op_ = "Writer Table " + std::string(ToString(kind)) + " of word " + std::to_string(addr) +
        " for transaction id " + std::to_string(tx);
  if (const std::optional<golden::WriterTableOut> res = RunToResult(*wt_, in, false)) {
    ++m_.stats.si_wt_ops;
    m_.stats.si_wt_writes += res->res_inserted != 0 || res->res_removed != 0 ? 1 : 0;
    return *res;
  }
  m_.Fail("the Writer Table gave no result");
  return {};
}

void SitmTs::Begin(int t) {
  Thread& th = m_.threads[static_cast<size_t>(t)];
  th.rl_words.clear();
  th.wt_words.clear();
  if (free_ids_.empty()) {
    th.si_id = -1;
    Abort(th, Thread::SiWhy::kFull);  // no id: abort and wait
    return;
  }
  th.si_id = free_ids_.back();
  free_ids_.pop_back();
  Postdate(PdOp::kBegin, th.si_id, 0, -1);
}

/// A transactional load of word a (5): the try becomes a reader; the word's writer gives an edge,
/// writer -> reader when its version is in the try's snapshot, else reader -> writer.
void SitmTs::Read(int t, uint32_t a) {
  Thread& th = m_.threads[static_cast<size_t>(t)];
  if (th.si_id < 0) {
    m_.Fail(m_.Describe(t) + ": a transactional load without a transaction id");
    return;
  }
  const RlAnswer r = ReaderOp(RlOp::kInsert, a, th.si_id);
  if (r.res.res_full != 0) {
    Abort(th, Thread::SiWhy::kFull);
    return;
  }
  if (r.res.res_inserted != 0) {
    th.rl_words.push_back(a);
  }
  const golden::WriterTableOut w = WriterOp(htm::WtOp::kRead, a, th.si_id);
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

/// A transactional store's first write of word a (5): the try becomes its single writer (if
/// another transaction writes the word, running or committed, the requester aborts) and every
/// reader gives an edge reader -> writer.
void SitmTs::Write(int t, uint32_t a) {
  Thread& th = m_.threads[static_cast<size_t>(t)];
  if (th.si_id < 0) {
    m_.Fail(m_.Describe(t) + ": a transactional store without a transaction id");
    return;
  }
  const golden::WriterTableOut w = WriterOp(htm::WtOp::kWrite, a, th.si_id);
  if (w.res_full != 0) {
    Abort(th, Thread::SiWhy::kFull);
    return;
  }
  if (w.res_found != 0 && static_cast<int>(w.res_writer) != th.si_id) {
    Abort(th, Thread::SiWhy::kSingleWriter);
    return;
  }
  if (w.res_inserted != 0) {
    th.wt_words.push_back(a);
  }
  for (const uint64_t r : ReaderOp(RlOp::kEnumerate, a, th.si_id).ids) {
    if (static_cast<int>(r) != th.si_id && !th.doomed) {
      Postdate(PdOp::kEdge, static_cast<int>(r), th.si_id, t);
    }
  }
}

void SitmTs::Leave(int id, const std::vector<uint32_t>& rl_words,
                   const std::vector<uint32_t>& wt_words) {
  for (const uint32_t a : rl_words) {
    ReaderOp(RlOp::kRemove, a, id);
  }
  for (const uint32_t a : wt_words) {
    WriterOp(htm::WtOp::kRemove, a, id);
  }
  free_ids_.push_back(id);
  full_ = false;  // an entry (and an id) is free again
}

/// Committed transactions that no running or later try can reach a cycle through leave the
/// tables. A try can only make an edge into a committed transaction whose writes are not in its
/// snapshot (read -> write); from there edges lead to transactions published later, or, read ->
/// write again, to ones published after the reader's snapshot. So with m the oldest snapshot in
/// use, lowered to the snapshot of every committed transaction published after m, until it
/// holds, every committed transaction published at or before m is out of reach. A committed
/// transaction without writes counts as published just after its snapshot.
void SitmTs::Retire() {
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

}  // namespace htm::gpu
