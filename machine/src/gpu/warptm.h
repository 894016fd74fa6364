// SPDX-License-Identifier: Apache-2.0
//
// WarpTM and its early-conflict-resolution variants as a TM policy (tm_policy.h): KILO TM, and
// at each core
//   * the intra-warp conflict detection (golden htm_intra_warp_cd) in every warp's commit: the
//     lanes that conflict with a lower lane of the warp abort before their logs leave;
//   * the temporal conflict detection (golden htm_tcd, one copy of the last-written-time table
//     per core): read-only lanes whose chunks were not written since their first read commit at
//     the core, once every older commit id retired;
//   * with Early-Abort or Pause-and-Go, the CAT (golden htm_cat), fed by the RCT (golden
//     htm_rct) of every commit unit through the interconnect (CatChannel); Early-Abort also
//     aborts the lanes whose logged words hit the CAT, and with Pause-and-Go every
//     transactional load and store of a converged warp goes through the core's Pause-and-Go
//     check (golden htm_pag_check), which pauses the lanes that hit.
// See docs/htmsim.md ("WarpTM", "+ Early-Abort", "+ Pause-and-Go").
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "htm/golden/intra_warp_cd_model.h"
#include "htm/golden/pag_check_model.h"
#include "htm/golden/rct_model.h"
#include "htm/golden/tcd_model.h"
#include "htm/machine/gpu/cat_channel.h"
#include "htm/machine/gpu/ecr_core.h"
#include "tm_policy.h"

namespace htm::gpu {

class WarpTm : public CommitUnitTm {
 public:
  WarpTm(Machine& m, bool ea, bool pg);

  void Start() override;
  void FinalStats(SystemStats& s) const override;
  /// What core c's blocks are doing, for reports.
  std::string EcrContext(int c) const;
  std::string TcdContext(int c) const;
  int TxAccess(int wi, const std::vector<int>& g) override;
  void OnMemoryWritten(uint32_t addr) override;
  void StartCommit(int wi) override;
  bool TakeReadOnly(int wi, int t) override;
  void AfterSendLogs(int wi, uint64_t need) override;
  void Decided(Committer& cm) override;
  bool CoreCycle(int c) override;
  bool PartitionCycle(int u, const golden::CommitUnitOut& out) override;
  bool Working() const override;
  void NextWake(uint64_t* next) const override;

 private:
  /// A core's early-conflict-resolution blocks (the intra-warp detection; with Early-Abort or
  /// Pause-and-Go, the CAT; with Pause-and-Go, the check) and the warps waiting for them.
  struct EcrPort {
    std::unique_ptr<EcrCore> ecr;
    bool cat_ready = false;    // the CAT has cleared its table
    uint64_t cat_pending = 0;  // deltas the CAT took and has not applied
    // Pause-and-Go: warps whose transactional access waits for the check, the one checked.
    std::deque<int> pag_queue;
    int pag_warp = -1;
    golden::PagCheckIn pag_in;  // its request (req_valid until the check takes it)
    uint64_t pag_start = 0;
    std::deque<int> queue;  // warps whose logs wait to be checked
    int warp = -1;          // the warp being checked
    std::vector<golden::IntraWarpCdIn> cmds;
    size_t next = 0;  // the command presented now
    uint64_t start = 0;
  };
  /// A core's temporal conflict detection. Its copy of the last-written-time table records
  /// every word written to memory, broadcast from the partitions with the interconnect's
  /// latency; the retirements of commit ids come the same way, behind the writes of the
  /// transactions they retire. A warp's read-only lanes wait until every commit id allocated
  /// before their commit has retired; then each read-log row is looked up (one lookup per chunk
  /// in the row, one a cycle), and a lane none of whose chunks was written since its first read
  /// commits here, serialized just before the oldest commit id not yet retired.
  struct TcdPort {
    std::unique_ptr<golden::Instance<golden::TcdPorts>> table;
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

  // Early conflict resolution.
  bool CatActive(int c) const;
  bool StepEcr(int c);
  void CountCat(int c, const EcrCore::Step& s);
  std::vector<golden::IntraWarpCdIn> IwcdCommands(int wi) const;
  golden::PagCheckIn PagRequest(int wi) const;
  bool StepRct(int u, const golden::CommitUnitOut& out);
  // Temporal conflict detection.
  void TcdBroadcast(bool retire, uint64_t v);
  bool TcdTurn(const TcdPort& p) const;
  uint64_t TcdStale(const Warp& w) const;
  uint64_t TcdStaleAt(int t) const;
  std::vector<TcdPort::Check> TcdChecks(int wi, uint64_t table_now) const;
  bool StepTcd(int c);
  void FinishTcd(int c);
  void TcdGate();

  const bool ea_, pg_, cat_, tcd_on_;
  std::vector<EcrPort> ecr_;  // one per core
  std::vector<TcdPort> tcd_;  // one per core (temporal conflict detection on)
  // Early-Abort, Pause-and-Go: one RCT per commit unit.
  std::vector<std::unique_ptr<golden::Instance<golden::RctPorts>>> rcts_;
  std::vector<uint64_t> rct_pending_;  // deltas an RCT emitted and has not sent yet
  std::vector<char> rct_working_;
  std::unique_ptr<CatChannel> cat_chan_;
};

}  // namespace htm::gpu
