// SPDX-License-Identifier: Apache-2.0
//
// The transaction-aware SIMT stack of a resident warp (htm_tx_simt_stack, one per warp slot of
// a core) on the workload path (docs/htmsim.md, "The transactional SIMT stack").
//
// The machine's warp scheduler issues, of a warp, the lanes at the lowest program point (inside
// a transaction: of the try's running lanes). The stack follows the warp through its ports
// with its own commands, and the machine checks before every issue that the stack's top holds
// exactly the lanes the scheduler picked, at their program point: a difference is a departure,
// reported like a block mismatch, and the run stops.
//
//   Init       at launch: every lane, at the warp's first operation, reconverging at the exit;
//   Next       the top's lanes moved on together (a non-bottom Normal top that reaches or passes
//              its reconvergence point pops);
//   Branch     the top's lanes parted: the lanes below the highest program point are taken, to
//              the next-highest point, and the highest is both the fall-through and the
//              reconvergence point (a warp split three ways takes one Branch per split);
//   TxBegin    the warp enters a transaction (a restarted try is already the top: no command);
//   Pause      Pause-and-Go paused lanes of the running try;
//   Commit     the try is decided: the lanes that did not commit go to the Retry entry; the
//              stack then resumes a paused group, restarts the failed lanes or ends the
//              transaction, and the machine checks that it did what the machine does.
//
// Positions: a lane's program point (its next operation's source line and column), or one of
// three points above every program point: the exit (the lane's kernel returned), the end of the
// try's body (at TX_Commit, or a zombie that stopped) and the point after the transaction (the
// Retry entry's reconvergence point).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "htm/golden/instance.h"
#include "htm/golden/tx_simt_stack_model.h"

namespace htm::gpu {

class Machine;
struct Warp;

class SimtStack {
 public:
  static constexpr uint32_t kExitPc = 0xFFFFFFFFu;
  static constexpr uint32_t kTxEndPc = 0xFFFFFFFEu;
  static constexpr uint32_t kTxExitPc = 0xFFFFFFFDu;

  SimtStack(Machine& m, int core, int slot);
  ~SimtStack();
  SimtStack(const SimtStack&) = delete;
  SimtStack& operator=(const SimtStack&) = delete;

  /// Warp wi is launched in this slot.
  void Init(int wi);
  /// Brings the stack up to date with warp wi's lanes and gives the lanes its top issues next
  /// (empty: the top is at the end of the try or at the exit, nothing to issue): false, with the
  /// run failed, when the stack cannot follow the warp.
  bool Follow(int wi, std::vector<int>* lanes);
  /// Warp wi's lanes `g` began a transaction (a first try or a restart).
  bool TxBegin(int wi, const std::vector<int>& g);
  /// Pause-and-Go paused `held` of warp wi's running try (checked only when TopIsTrans()).
  bool Pause(int wi, const std::vector<int>& held);
  /// Warp wi's try is decided: `failed` did not commit; `resumes`: a paused group resumes next.
  bool Commit(int wi, const std::vector<int>& failed, bool resumes);
  /// The top is a Trans entry: the running try has not diverged (Pause-and-Go checks only then).
  bool TopIsTrans() const {
    return out_.top_valid && out_.top_type == static_cast<uint64_t>(SimtType::kTrans);
  }
  /// The deepest the stack has been.
  uint64_t max_depth() const { return max_depth_; }

 private:
  golden::TxSimtStackOut Cmd(int wi, SimtOp op, uint64_t mask, uint64_t pc, uint64_t pc2,
                             uint64_t rpc);
  /// Lane t's position; `in_try`: t is one of the running try's lanes (w.tx).
  uint32_t Position(const Warp& w, int t, bool in_try) const;
  uint64_t Mask(const Warp& w, const std::vector<int>& ts) const;
  bool Depart(int wi, const std::string& what);
  std::string Top() const;
  std::string Context() const;

  Machine& m_;
  int core_, slot_;
  std::unique_ptr<golden::Instance<golden::TxSimtStackPorts>> inst_;
  golden::TxSimtStackOut out_;  // the outputs after the last command
  int wi_ = -1;                 // the warp of the last command, for reports
  uint64_t max_depth_ = 0;
};

}  // namespace htm::gpu
