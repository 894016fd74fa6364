// SPDX-License-Identifier: Apache-2.0
//
// The transaction-aware SIMT stack on the workload path: see simt_stack.h.
#include "simt_stack.h"

#include <algorithm>
#include <array>
#include <sstream>

#include "machine.h"

namespace htm::gpu {

namespace {

std::string PointText(uint64_t pc) {
  switch (pc) {
    case SimtStack::kExitPc:
      return "the exit";
    case SimtStack::kTxEndPc:
      return "the end of the try";
    case SimtStack::kTxExitPc:
      return "after the transaction";
    default:
      return "line " + PcText(static_cast<uint32_t>(pc));
  }
}

std::string MaskText(uint64_t m) {
  std::ostringstream os;
  os << "0x" << std::hex << m;
  return os.str();
}

}  // namespace

SimtStack::SimtStack(Machine& m, int core, int slot) : m_(m), core_(core), slot_(slot) {
  const std::string name = "core" + std::to_string(core) + ".simt" + std::to_string(slot);
  inst_ = m.MakeBlock<golden::TxSimtStackModel>("htm_tx_simt_stack", name, m.cfg.simt,
                                                [this] { return Context(); });
  inst_->Reset();
  out_ = inst_->Eval(golden::TxSimtStackIn{});
}

SimtStack::~SimtStack() = default;

golden::TxSimtStackOut SimtStack::Cmd(int wi, SimtOp op, uint64_t mask, uint64_t pc, uint64_t pc2,
                                      uint64_t rpc) {
  wi_ = wi;
  golden::TxSimtStackIn in;
  in.cmd_valid = 1;
  in.cmd_op = static_cast<uint64_t>(op);
  in.cmd_mask = mask;
  in.cmd_pc = pc;
  in.cmd_pc2 = pc2;
  in.cmd_rpc = rpc;
  inst_->Eval(in);
  inst_->Tick(in);
  const uint64_t before = out_.depth;
  out_ = inst_->Eval(golden::TxSimtStackIn{});
  m_.stats.simt_pushes += out_.depth > before ? out_.depth - before : 0;
  m_.stats.simt_pops += out_.depth < before ? before - out_.depth : 0;
  max_depth_ = std::max(max_depth_, out_.depth);
  ++m_.stats.simt_commands;
  m_.stats.simt_depth_max = std::max(m_.stats.simt_depth_max, out_.depth);
  return out_;
}

uint32_t SimtStack::Position(const Warp& w, int t, bool in_try) const {
  const Thread& th = m_.threads[static_cast<size_t>(t)];
  if (w.in_tx && in_try) {
    return th.doomed || th.lane->op().kind == OpKind::kTxCommit ? kTxEndPc : th.lane->op().pc;
  }
  return th.done ? kExitPc : th.lane->op().pc;
}

uint64_t SimtStack::Mask(const Warp& w, const std::vector<int>& ts) const {
  uint64_t m = 0;
  for (const int t : ts) {
    m |= uint64_t{1} << (t - w.first);
  }
  return m;
}

std::string SimtStack::Context() const {
  if (wi_ < 0) {
    return "no warp yet";
  }
  const Warp& w = m_.warps[static_cast<size_t>(wi_)];
  std::ostringstream os;
  os << "warp " << wi_ << " (threads " << w.first << ".." << w.first + 31 << ")";
  if (w.in_tx) {
    os << ", in a transaction begun at line "
       << PcText(m_.threads[static_cast<size_t>(w.tx.empty() ? w.first : w.tx[0])].lane->tx_pc())
       << ", try lanes " << MaskText(Mask(w, w.tx));
  }
  for (int l = 0; l < 32; ++l) {
    if ((out_.top_mask >> l) & 1) {
      os << "; the top's first lane: " << m_.Describe(w.first + l);
      break;
    }
  }
  return os.str();
}

std::string SimtStack::Top() const {
  std::ostringstream os;
  os << "top " << ToString(static_cast<SimtType>(out_.top_type)) << " at " << PointText(out_.top_pc)
     << ", reconverging at " << PointText(out_.top_rpc) << ", lanes " << MaskText(out_.top_mask)
     << ", depth " << out_.depth << (out_.in_tx ? ", in a transaction" : "");
  return os.str();
}

bool SimtStack::Depart(int wi, const std::string& what) {
  m_.Fail("htm_tx_simt_stack core" + std::to_string(core_) + ".simt" + std::to_string(slot_) +
          " (warp " + std::to_string(wi) + "): " + what + " (" + Top() + ")");
  return false;
}

void SimtStack::Init(int wi) {
  const Warp& w = m_.warps[static_cast<size_t>(wi)];
  Cmd(wi, SimtOp::kInit, golden::LowMask(32), Position(w, w.first, false), 0, kExitPc);
}

bool SimtStack::Follow(int wi, std::vector<int>* lanes) {
  const Warp& w = m_.warps[static_cast<size_t>(wi)];
  // Where every lane is (commands do not move lanes): once per issue.
  uint64_t in_try = 0;
  if (w.in_tx) {
    in_try = Mask(w, w.tx);
  }
  std::array<uint32_t, 32> pos{};
  for (int l = 0; l < 32; ++l) {
    pos[static_cast<size_t>(l)] = Position(w, w.first + l, ((in_try >> l) & 1) != 0);
  }
  // The top's lanes grouped by position, lowest first.
  std::array<std::pair<uint32_t, uint64_t>, 32> at{};
  size_t n = 0;
  for (int step = 0; step < 4 * 32 + 8; ++step) {
    if (out_.err) {
      return Depart(wi, "the stack refused a command (an overflow or a command out of place)");
    }
    const uint64_t mask = out_.top_mask;
    if (!out_.top_valid || mask == 0) {
      return Depart(wi, "the stack's top has no lanes");
    }
    n = 0;
    for (int l = 0; l < 32; ++l) {
      if ((mask >> l) & 1) {
        const uint32_t p = pos[static_cast<size_t>(l)];
        size_t k = 0;
        while (k < n && at[k].first < p) {
          ++k;
        }
        if (k < n && at[k].first == p) {
          at[k].second |= uint64_t{1} << l;
          continue;
        }
        for (size_t j = n; j > k; --j) {
          at[j] = at[j - 1];
        }
        at[k] = {p, uint64_t{1} << l};
        ++n;
      }
    }
    const uint32_t lo = at[0].first;
    const uint32_t hi = at[n - 1].first;
    const bool normal_above =
        out_.top_type == static_cast<uint64_t>(SimtType::kNormal) && out_.depth > 1;
    if (normal_above && lo >= out_.top_rpc) {
      Cmd(wi, SimtOp::kNext, 0, out_.top_rpc, 0, 0);  // reached or passed its reconvergence
      continue;
    }
    if (normal_above && hi >= out_.top_rpc) {
      // Some lanes reached or passed the top's reconvergence point: they leave the top (the
      // entry below waits there with them), the others go on.
      uint64_t before = 0;
      uint32_t highest = lo;
      for (size_t k = 0; k < n && at[k].first < out_.top_rpc; ++k) {
        before |= at[k].second;
        highest = at[k].first;
      }
      Cmd(wi, SimtOp::kBranch, before, highest, out_.top_rpc, out_.top_rpc);
      continue;
    }
    if (n == 1) {
      if (out_.top_pc == lo) {
        break;
      }
      Cmd(wi, SimtOp::kNext, 0, lo, 0, 0);
      continue;
    }
    Cmd(wi, SimtOp::kBranch, mask & ~at[n - 1].second, at[n - 2].first, hi, hi);
  }
  if (out_.err) {
    return Depart(wi, "the stack refused a command (an overflow or a command out of place)");
  }
  lanes->clear();
  if (out_.top_pc >= kTxExitPc) {
    return true;
  }
  const Op* op0 = nullptr;
  for (int l = 0; l < 32; ++l) {
    if ((out_.top_mask >> l) & 1) {
      const int t = w.first + l;
      const Op& op = m_.threads[static_cast<size_t>(t)].lane->op();
      if (op0 != nullptr && op.kind != op0->kind) {
        return Depart(wi, "lanes at one program point wait on different operations");
      }
      op0 = &op;
      lanes->push_back(t);
    }
  }
  return true;
}

bool SimtStack::TxBegin(int wi, const std::vector<int>& g) {
  const Warp& w = m_.warps[static_cast<size_t>(wi)];
  const uint64_t mask = Mask(w, g);
  const uint32_t pc = m_.threads[static_cast<size_t>(g[0])].lane->tx_pc();
  if (!out_.in_tx) {
    Cmd(wi, SimtOp::kTxBegin, 0, pc, kTxExitPc, 0);
  }
  if (!out_.in_tx || out_.top_type != static_cast<uint64_t>(SimtType::kTrans) ||
      out_.top_mask != mask || out_.top_pc != pc) {
    return Depart(wi, "the transaction begun at line " + PcText(pc) + " by lanes " +
                          MaskText(mask) + " is not the stack's top Trans entry");
  }
  return true;
}

bool SimtStack::Pause(int wi, const std::vector<int>& held) {
  const Warp& w = m_.warps[static_cast<size_t>(wi)];
  Cmd(wi, SimtOp::kPause, Mask(w, held), 0, 0, 0);
  if (!out_.paused || out_.err) {
    return Depart(wi, "the stack did not pause lanes " + MaskText(Mask(w, held)) +
                          " that Pause-and-Go paused");
  }
  return true;
}

bool SimtStack::Commit(int wi, const std::vector<int>& failed, bool resumes) {
  const Warp& w = m_.warps[static_cast<size_t>(wi)];
  if (out_.top_type != static_cast<uint64_t>(SimtType::kTrans) || out_.top_pc != kTxEndPc) {
    return Depart(wi, "the try is decided but the stack's top is not its Trans entry at its end");
  }
  Cmd(wi, SimtOp::kCommit, Mask(w, failed), 0, 0, 0);
  if (resumes) {
    const uint64_t expect = Mask(w, w.paused.back());
    if (!out_.resumed || out_.top_mask != expect) {
      return Depart(wi, "the paused lanes " + MaskText(expect) + " did not resume");
    }
  } else if (w.tx_aborts ? !out_.restarted : !out_.tx_done) {
    return Depart(wi, w.tx_aborts ? "the transaction did not restart its failed lanes"
                                  : "the transaction did not end");
  }
  return true;
}

}  // namespace htm::gpu
