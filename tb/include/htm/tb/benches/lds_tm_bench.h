// SPDX-License-Identifier: Apache-2.0
//
// Reactive stimulus for htm_lds_tm: a compute unit running the work-group's wavefronts on the
// LDS with transactions.
//
// After reset the bench writes every LDS word non-transactionally (wavefront 0, all lanes),
// so that reads and atomics see defined data. Then each cycle it picks a wavefront and
// presents that wavefront's next instruction (an instruction that is not accepted may be
// replaced by another wavefront's in the next cycle). Outside transactions a wavefront writes
// EXEC, loads, stores and runs atomics anywhere; it begins a transaction now and then. In a try
// it loads and stores in a small "hot" window shared by all wavefronts (coalesced, bank-
// conflicting or random lanes), so that work-items conflict, tries livelock and the
// serialization modes (WfS, WgS) are reached; it writes EXEC to subsets of the try now and
// then, nests TX_Begin/TX_Commit, and commits after a few accesses; a retry begins again at
// once. Rare protocol violations are sent on purpose (a bad wavefront or op, an address out of
// range, an atomic in a try, EXEC widened in a try).
//
// The bench acts on the outputs of the cycle before (Observe); after an accepted control
// instruction a wavefront waits one cycle to see its effect.
#pragma once

#include <cstdint>
#include <vector>

#include "htm/enums.h"
#include "htm/golden/lds_tm_model.h"
#include "htm/tb/stimulus.h"

namespace htm::tb {

class LdsTmBench {
 public:
  using Ports = golden::LdsTmPorts;
  using Model = golden::LdsTmModel;
  using In = golden::LdsTmIn;
  using Out = golden::LdsTmOut;

  LdsTmBench(const golden::LdsTmParams& p, uint64_t seed)
      : p_(p),
        rng_(seed),
        num_wf_(p.wg_size / p.wf_size),
        words_(p.num_banks * p.bank_words),
        all_(golden::LowMask(p.wf_size)),
        wfs_(p.wg_size / p.wf_size) {
    OnReset();
  }

  void OnReset() {
    init_ = 0;
    out_ = Out{};
    for (int v = 0; v < num_wf_; ++v) {
      out_.wf_exec[v] = all_;
    }
    for (auto& w : wfs_) {
      w = Wf{};
    }
    NewWindow();
  }

  In Next() {
    In in;
    if (rng_.Chance(1, 400)) {
      NewWindow();
    }
    if (init_ < words_) {
      // Every word once, wavefront 0 (EXEC is all ones after reset).
      in.ins_valid = 1;
      in.ins_op = static_cast<uint64_t>(LdsIns::kStore);
      in.ins_wf = 0;
      for (int l = 0; l < p_.wf_size; ++l) {
        const int a = init_ + l;
        in.ins_addr[l] = static_cast<uint64_t>(a < words_ ? a : words_ - 1);
        in.ins_data[l] = rng_.Bits(32);
      }
      return in;
    }
    if (rng_.Chance(1, 10)) {
      return in;  // an idle cycle
    }
    const int v = static_cast<int>(rng_.Below(static_cast<uint64_t>(num_wf_)));
    Wf& w = wfs_[v];
    if (w.cool > 0) {
      --w.cool;
      return in;
    }
    in.ins_valid = 1;
    in.ins_wf = static_cast<uint64_t>(v);
    const bool in_try = (out_.wf_in_try >> v) & 1;
    const bool retry = (out_.wf_retry >> v) & 1;
    const uint64_t exec = out_.wf_exec[v];
    if (rng_.Chance(1, 3000)) {
      // A protocol violation: a bad wavefront or op.
      if (rng_.Chance(1, 2) && golden::IdxWidth(num_wf_) > 0 &&
          (uint64_t{1} << golden::IdxWidth(num_wf_)) > static_cast<uint64_t>(num_wf_)) {
        in.ins_wf = static_cast<uint64_t>(num_wf_);
      } else {
        in.ins_op = 7;
      }
      return in;
    }
    if (retry) {
      Control(in, v, LdsIns::kTxBegin);
      return in;
    }
    if (!in_try) {
      w.depth = 0;
      const uint64_t r = rng_.Below(100);
      if (r < 12) {
        Control(in, v, LdsIns::kTxBegin);
        w.left = 1 + static_cast<int>(rng_.Below(6));
      } else if (r < 20) {
        in.ins_op = static_cast<uint64_t>(LdsIns::kExecWrite);
        in.ins_exec = rng_.Chance(1, 2) ? all_ : rng_.Bits(p_.wf_size);
        w.cool = 1;
      } else if (r < 30) {
        in.ins_op = static_cast<uint64_t>(rng_.Chance(1, 2) ? LdsIns::kAtomAdd : LdsIns::kAtomCas);
        Addresses(in, /*hot=*/rng_.Chance(1, 2));
        for (int l = 0; l < p_.wf_size; ++l) {
          in.ins_data[l] = rng_.Below(4);
          in.ins_cmp[l] = rng_.Chance(1, 2) ? 0 : rng_.Bits(32);
        }
      } else {
        in.ins_op = static_cast<uint64_t>(rng_.Chance(1, 2) ? LdsIns::kLoad : LdsIns::kStore);
        Addresses(in, /*hot=*/rng_.Chance(1, 3));
      }
      return in;
    }
    // In a try.
    if (w.replay && w.depth == 0) {
      // A retry replays the try's accesses, as a program would: the same conflicts come back,
      // which is what drives a wavefront into WfS and WgS.
      if (w.pos < w.script.size()) {
        in = w.script[w.pos];
        in.ins_wf = static_cast<uint64_t>(v);
      } else {
        Control(in, v, LdsIns::kTxCommit);
      }
      return in;
    }
    const uint64_t r = rng_.Below(100);
    if (w.left <= 0 && w.depth == 0) {
      Control(in, v, LdsIns::kTxCommit);
    } else if (r < 5) {
      if (w.depth > 0 && rng_.Chance(1, 2)) {
        Control(in, v, LdsIns::kTxCommit);
        --w.depth;
      } else if (w.depth < p_.max_depth || rng_.Chance(1, 20)) {
        Control(in, v, LdsIns::kTxBegin);
        ++w.depth;
      }
    } else if (r < 12) {
      // EXEC to a subset of the try (rarely wider: an error), or back to all of it.
      in.ins_op = static_cast<uint64_t>(LdsIns::kExecWrite);
      in.ins_exec = rng_.Chance(1, 2) ? w.try_exec : w.try_exec & rng_.Bits(p_.wf_size);
      if (rng_.Chance(1, 200)) {
        in.ins_exec = all_;
      }
      w.cool = 1;
    } else if (r < 13 && rng_.Chance(1, 10)) {
      in.ins_op = static_cast<uint64_t>(LdsIns::kAtomAdd);  // an atomic in a try: an error
      Addresses(in, true);
    } else {
      in.ins_op = static_cast<uint64_t>(rng_.Chance(1, 2) ? LdsIns::kLoad : LdsIns::kStore);
      Addresses(in, /*hot=*/!rng_.Chance(1, 10));
      --w.left;
    }
    (void)exec;
    return in;
  }

  void Observe(const In& in, const Out& out) {
    const Out before = out_;
    out_ = out;
    if (init_ < words_) {
      if (in.ins_valid && out.ins_ready) {
        init_ += p_.wf_size;
      }
      return;
    }
    if (!in.ins_valid || !out.ins_ready || in.ins_wf >= static_cast<uint64_t>(num_wf_)) {
      return;
    }
    Wf& w = wfs_[in.ins_wf];
    const bool was_in_try = (before.wf_in_try >> in.ins_wf) & 1;
    if (in.ins_op == static_cast<uint64_t>(LdsIns::kTxBegin) && !was_in_try) {
      w.try_exec = before.wf_exec[in.ins_wf];
      if ((before.wf_retry >> in.ins_wf) & 1) {
        w.replay = !w.script.empty() && rng_.Chance(3, 4);
        w.pos = 0;
      } else {
        w.script.clear();
        w.replay = false;
      }
    }
    const bool mem = in.ins_op == static_cast<uint64_t>(LdsIns::kLoad) ||
                     in.ins_op == static_cast<uint64_t>(LdsIns::kStore);
    if (mem && was_in_try && w.depth == 0) {
      if (w.replay) {
        ++w.pos;
      } else if (w.script.size() < 16) {
        w.script.push_back(in);  // the try's accesses, for a replay at its retry
      }
    }
  }

 private:
  struct Wf {
    int cool = 0;   // cycles to wait before the next instruction
    int left = 0;   // accesses before TX_Commit
    int depth = 0;  // nesting depth
    uint64_t try_exec = 0;
    std::vector<In> script;  // the try's loads and stores
    size_t pos = 0;          // next one to replay
    bool replay = false;     // this try replays the script
  };

  void Control(In& in, int v, LdsIns op) {
    in.ins_op = static_cast<uint64_t>(op);
    wfs_[v].cool = 1;
  }

  void NewWindow() {
    const int span = 1 + static_cast<int>(rng_.Below(static_cast<uint64_t>(
                             words_ < 3 * p_.num_banks ? words_ : 3 * p_.num_banks)));
    win_lo_ = static_cast<int>(rng_.Below(static_cast<uint64_t>(words_ - span + 1)));
    win_n_ = span;
  }

  // Lane addresses: in the hot window (coalesced, one bank, or random), or anywhere; rarely
  // out of range.
  void Addresses(In& in, bool hot) {
    const int pattern = static_cast<int>(rng_.Below(3));
    const int base = static_cast<int>(rng_.Below(static_cast<uint64_t>(win_n_)));
    for (int l = 0; l < p_.wf_size; ++l) {
      int a = 0;
      if (hot) {
        switch (pattern) {
          case 0:
            a = win_lo_ + (base + l) % win_n_;  // coalesced
            break;
          case 1:
            a = win_lo_ + (base + l * p_.num_banks) % win_n_;  // same bank where it can
            break;
          default:
            a = win_lo_ + static_cast<int>(rng_.Below(static_cast<uint64_t>(win_n_)));
            break;
        }
      } else {
        a = static_cast<int>(rng_.Below(static_cast<uint64_t>(words_)));
      }
      in.ins_addr[l] = static_cast<uint64_t>(a);
      in.ins_data[l] = rng_.Bits(32);
    }
    if (rng_.Chance(1, 500)) {
      const int aw = golden::IdxWidth(words_);
      const int l = static_cast<int>(rng_.Below(static_cast<uint64_t>(p_.wf_size)));
      in.ins_addr[l] = (uint64_t{1} << aw) > static_cast<uint64_t>(words_)
                           ? golden::LowMask(aw)
                           : in.ins_addr[l];  // every address is in range
    }
  }

  golden::LdsTmParams p_;
  Rng rng_;
  int num_wf_, words_;
  uint64_t all_;
  std::vector<Wf> wfs_;
  Out out_;
  int init_ = 0;
  int win_lo_ = 0, win_n_ = 1;
};

}  // namespace htm::tb
