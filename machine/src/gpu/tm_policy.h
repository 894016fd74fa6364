// SPDX-License-Identifier: Apache-2.0
//
// The TM configurations as policies (docs/htmsim.md, "Architecture"). One policy object is
// chosen when the machine is built and decides everything a configuration changes: how a warp
// enters a transaction, how a transactional load and store are performed, which lanes go to the
// commit units and with what log, what happens when their outcome is known, and which extra
// blocks the cores and partitions have. The machine calls its hooks; no part of the machine asks
// which configuration runs.
//
//   SerialTm        serial: one transaction at a time in the whole GPU (a global token), on
//                   memory directly.
//   LockBaseline    fgl: the workload's fine-grained-lock kernel, no transactions.
//   CommitUnitTm    kilotm, KILO TM: read and write logs per thread; at the end of a warp's try
//                   the log walker sends each lane's log to the commit units, which validate by
//                   value and commit in commit-id order.
//   WarpTm          warptm, warptm-ea, warptm-pg, warptm-eapg (warptm.cc): KILO TM with each
//                   core's intra-warp conflict detection and temporal conflict detection; with
//                   Early-Abort and/or Pause-and-Go, the RCT of every commit unit and the CAT
//                   (and the Pause-and-Go check) of every core.
//   SnapshotTm      sitm-oracle (sitm.cc): snapshot reads from the multi-version memory, the
//                   write set through the commit units, exact dependency-loop aborts.
//   SitmTs          sitm (sitm.cc): snapshot isolation with the Writer Table, the Reader List
//                   and the post-dating unit detecting the loops.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "htm/golden/commit_unit_model.h"
#include "machine.h"

namespace htm::gpu {

class TmPolicy {
 public:
  explicit TmPolicy(Machine& m) : m_(m) {}
  virtual ~TmPolicy() = default;
  TmPolicy(const TmPolicy&) = delete;
  TmPolicy& operator=(const TmPolicy&) = delete;

  /// The policy for `tm` on machine `m` (its blocks are built here).
  static std::unique_ptr<TmPolicy> Make(Machine& m, TmMode tm);

  // ---- Setup and end of the run --------------------------------------------------------------
  /// Before the first cycle (the memory is initialised).
  virtual void Start() {}
  /// After the last cycle, before the serialization replay ends: the policy's own checks.
  virtual void Finish() {}
  /// The policy's figures for the run's statistics.
  virtual void FinalStats(SystemStats& s) const { (void)s; }

  // ---- Threads -------------------------------------------------------------------------------
  /// The code a thread runs.
  virtual Task Kernel(Lane& l);
  /// The warps issue through their transaction-aware SIMT stacks (htm_tx_simt_stack): all but
  /// serial, whose one-thread-at-a-time transactions are no SIMT discipline.
  virtual bool UsesSimtStack() const { return true; }

  // ---- Issue -------------------------------------------------------------------------------
  /// Warp wi's threads g are at TX_Begin: 0 the warp waits (nothing issued), 1 issued.
  virtual int TxBegin(int wi, const std::vector<int>& g) = 0;
  /// The threads of warp w's try that may issue (at the lowest program point among them).
  virtual void TxCandidates(const Warp& w, std::vector<int>* cand) const;
  /// The try's threads have all finished its body: 0 nothing issued, 1 issued.
  virtual int BodyDone(int wi);
  /// Thread t's try has run `max_tx_ops` operations.
  virtual void TryTooLong(int t);
  /// A transactional load or store of threads g (at the same access).
  virtual int TxAccess(int wi, const std::vector<int>& g);
  virtual int TxLoad(int wi, const std::vector<int>& g) = 0;
  virtual int TxStore(int wi, const std::vector<int>& g) = 0;
  /// Thread t begins a try (its logs are cleared; the lane's body not yet started).
  virtual void OnBeginTry(int t) { (void)t; }

  // ---- Memory --------------------------------------------------------------------------------
  /// A word is written to memory (a non-transactional write, or a commit write performed).
  virtual void OnMemoryWritten(uint32_t addr) { (void)addr; }
  /// A non-transactional store or atomic performed now: into the serialization order.
  virtual void NonTxWrite(int t, uint32_t addr, uint32_t value, bool atomic, uint32_t old);

  // ---- The commit path -----------------------------------------------------------------------
  /// A lane whose try goes to the commit units: not aborted already, and with a log.
  virtual bool Sends(int t) const;
  /// Every thread of warp wi's try is at TX_Commit (the warp is marked committing).
  virtual void StartCommit(int wi);
  /// SendLogs: the commit ids allocated so far are `need`; true when the policy takes read-only
  /// lane t elsewhere (WarpTM's temporal conflict detection) instead of the commit units.
  virtual bool TakeReadOnly(int wi, int t) {
    (void)wi;
    (void)t;
    return false;
  }
  /// SendLogs is done with warp wi (commit ids below `need` were allocated before).
  virtual void AfterSendLogs(int wi, uint64_t need) {
    (void)wi;
    (void)need;
  }
  /// The validation entries of thread t's log for the commit units, per partition.
  virtual void Validations(int t, std::vector<std::vector<Msg>>* words) const;
  /// Every unit involved passed committer cm: false when the policy fails it after all.
  virtual bool Passed(Committer& cm) {
    (void)cm;
    return true;
  }
  /// Committer cm is decided (every reply in, every commit acknowledged).
  virtual void Decided(Committer& cm);
  /// Thread t of a finished try had nothing for the commit units and no abort: false when the
  /// policy aborts it at the core.
  virtual bool CommitsAtCore(int t) {
    (void)t;
    return true;
  }
  /// Thread t's try ended (committed or not).
  virtual void OnTryEnd(int t, bool committed) {
    (void)t;
    (void)committed;
  }
  /// Every thread of warp wi's try is decided (before the warp goes on).
  virtual void OnWarpTryEnd(int wi) { (void)wi; }

  // ---- Cycles ------------------------------------------------------------------------------
  /// One cycle of core c's commit path and blocks, after the core's issue. True when busy.
  virtual bool CoreCycle(int c) {
    (void)c;
    return false;
  }
  /// Unit u stepped with outputs `out`: the policy's blocks beside it. True when busy.
  virtual bool PartitionCycle(int u, const golden::CommitUnitOut& out) {
    (void)u;
    (void)out;
    return false;
  }
  /// A block of the policy has work this cycle.
  virtual bool Working() const { return false; }
  /// Lowers `next` to the cycle at which a block of the policy next has something to do.
  virtual void NextWake(uint64_t* next) const { (void)next; }

 protected:
  Machine& m_;
};

/// serial: a global token; one warp at a time runs its transactions, one thread at a time,
/// directly on memory.
class SerialTm : public TmPolicy {
 public:
  using TmPolicy::TmPolicy;
  bool UsesSimtStack() const override { return false; }
  int TxBegin(int wi, const std::vector<int>& g) override;
  void TxCandidates(const Warp& w, std::vector<int>* cand) const override;
  int BodyDone(int wi) override;
  void TryTooLong(int t) override;
  int TxLoad(int wi, const std::vector<int>& g) override { return m_.MemAccess(wi, g, false); }
  int TxStore(int wi, const std::vector<int>& g) override { return m_.MemAccess(wi, g, false); }

 private:
  /// The running thread's try is complete (or none runs yet): commit it and start the next
  /// thread of the group; false when the warp still waits for something.
  bool Next(int wi);
  int token_ = -1;
  std::vector<int> waiters_;
  uint64_t cid_ = 0;
};

/// fgl: the workload's kernel with fine-grained locks; a transaction is an error.
class LockBaseline : public TmPolicy {
 public:
  using TmPolicy::TmPolicy;
  Task Kernel(Lane& l) override;
  int TxBegin(int wi, const std::vector<int>& g) override;
  int TxLoad(int wi, const std::vector<int>& g) override;
  int TxStore(int wi, const std::vector<int>& g) override;
};

/// kilotm: KILO TM. A transactional load reads the thread's write log, then its read log, then
/// memory (logged with the value); stores go to the write log; the logs go through the commit
/// units at the end of the warp's try.
class CommitUnitTm : public TmPolicy {
 public:
  using TmPolicy::TmPolicy;
  int TxBegin(int wi, const std::vector<int>& g) override;
  int TxLoad(int wi, const std::vector<int>& g) override;
  int TxStore(int wi, const std::vector<int>& g) override;
  bool CoreCycle(int c) override { return m_.cores[static_cast<size_t>(c)].SendCommitMessages(); }

 protected:
  /// TX_Begin of warp wi after it has its transactional slot: false when it must wait.
  virtual bool Admit(int wi) {
    (void)wi;
    return true;
  }
  /// The value of word a that thread t's transactional load returns from memory (when the
  /// partition performs it).
  virtual uint32_t LoadFromMemory(int t, uint32_t a);
  /// Thread t's first write of word a in its try.
  virtual void OnFirstWrite(int t, uint32_t a) {
    (void)t;
    (void)a;
  }
};

}  // namespace htm::gpu
