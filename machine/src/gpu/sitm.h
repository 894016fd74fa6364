// SPDX-License-Identifier: Apache-2.0
//
// Snapshot isolation as TM policies (tm_policy.h; docs/htmsim.md, "Snapshot isolation in the
// model"):
//   SnapshotTm  sitm-oracle: each try reads the snapshot that was newest at its TX_Begin from the
//               multi-version memory (htm/machine/gpu/si.h); the commit units check the write
//               set only (first committer wins); a commit that would close a cycle in the exact
//               dependency graph aborts.
//   SitmTs      sitm: the same snapshots and commit, with the loops detected as the paper does:
//               the Writer Table (single writer per word), the Scalable Reader List and the
//               post-dating unit; a loop or a refused entry aborts the try that made the access.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include "version_table.h"

#include "htm/golden/postdate_model.h"
#include "htm/golden/reader_list_model.h"
#include "htm/golden/writer_table_model.h"
#include "htm/machine/gpu/si.h"
#include "tm_policy.h"

namespace htm::gpu {

class SnapshotTm : public CommitUnitTm {
 public:
  using CommitUnitTm::CommitUnitTm;

  void Start() override;
  void Finish() override;
  void FinalStats(SystemStats& s) const override;
  void OnBeginTry(int t) override;
  void NonTxWrite(int t, uint32_t addr, uint32_t value, bool atomic, uint32_t old) override;
  bool Sends(int t) const override;
  void Validations(int t, std::vector<std::vector<Msg>>* words) const override;
  bool Passed(Committer& cm) override;
  void Decided(Committer& cm) override;
  bool CommitsAtCore(int t) override;
  void OnTryEnd(int t, bool committed) override;
  void OnWarpTryEnd(int wi) override;

 protected:
  uint32_t LoadFromMemory(int t, uint32_t a) override;
  /// Thread t's try passed (or reads only): commits it unless that closes a cycle in the
  /// dependency graph. Returns its node, or -1 (aborted: a loop).
  int64_t Commit(int t, SiGraph::Key key);
  /// The exact graph found a cycle at thread t's commit.
  virtual void LoopAtCommit(Thread& th) { th.si_why = Thread::SiWhy::kLoop; }
  /// Thread t's try committed as graph node `node`.
  virtual void OnCommitted(int t, int64_t node) {
    (void)t;
    (void)node;
  }
  /// A snapshot was published with the writes of these committed transactions.
  virtual void OnPublished(const std::vector<std::pair<int64_t, WordLog>>& txs) { (void)txs; }

  std::unique_ptr<SnapshotMemory> smem_;
  std::unique_ptr<SiGraph> graph_;
  std::unique_ptr<VersionTable> vt_;  // the Version Index Table on the path

 private:
  void Publish();

  InCidOrder<std::pair<int64_t, WordLog>> pending_;  // decided, released in cid order
  std::vector<std::pair<int64_t, WordLog>> ready_;   // in order, not yet published
  uint64_t write_seq_ = 0;
};

class SitmTs : public SnapshotTm {
 public:
  using SnapshotTm::SnapshotTm;

  void Start() override;
  void OnBeginTry(int t) override;
  void OnTryEnd(int t, bool committed) override;
  void OnWarpTryEnd(int wi) override;

 protected:
  bool Admit(int wi) override;
  uint32_t LoadFromMemory(int t, uint32_t a) override;
  void OnFirstWrite(int t, uint32_t a) override;
  void LoopAtCommit(Thread& th) override;
  void OnCommitted(int t, int64_t node) override;
  void OnPublished(const std::vector<std::pair<int64_t, WordLog>>& txs) override;

 private:
  void Postdate(PdOp op, int a, int b, int t);
  void Abort(Thread& th, Thread::SiWhy why);
  golden::WriterTableOut WriterOp(htm::WtOp kind, uint32_t addr, int tx);
  void Begin(int t);
  void Read(int t, uint32_t a);
  void Write(int t, uint32_t a);
  void Leave(int id, const std::vector<uint32_t>& rl_words, const std::vector<uint32_t>& wt_words);
  void Retire();

  /// A Reader List operation run to its result: its result and, for an enumeration, the
  /// readers streamed.
  struct RlAnswer {
    golden::ReaderListOut res;
    std::vector<uint64_t> ids;
  };
  RlAnswer ReaderOp(RlOp kind, uint32_t addr, int tx);
  /// The context of the tables' operation, for reports.
  std::string TableContext() const;

  // The tables, each one instance driven through its ports; an operation runs the block to its
  // result within the cycle (the paper overlaps them with the memory access).
  std::unique_ptr<golden::Instance<golden::WriterTablePorts>> wt_;
  std::unique_ptr<golden::Instance<golden::ReaderListPorts>> rl_;
  std::unique_ptr<golden::Instance<golden::PostdatePorts>> pd_;
  std::string op_;  // the operation in progress, for reports
  std::vector<int> free_ids_;
  struct Retained {
    uint64_t snap = 0, pub = UINT64_MAX;  // its snapshot; the snapshot its writes joined
    int64_t node = -1;
    std::vector<uint32_t> rl_words, wt_words;
  };
  std::map<int, Retained> retained_;          // committed, by transaction id
  std::unordered_map<int64_t, int> by_node_;  // graph node -> transaction id
  std::vector<int> waiters_;                  // warps waiting at TX_Begin (full tables)
  int tx_warps_ = 0;                          // warps in a transaction
  bool full_ = false, throttle_ = false;
};

}  // namespace htm::gpu
