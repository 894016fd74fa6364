// SPDX-License-Identifier: Apache-2.0
//
// Scripted cores that run the KILO TM protocol against one commit unit (docs/htm_commit_unit.md,
// "Protocol seen from a core"): each takes the next commit id, sends Alloc (again, after a
// random delay, on AllocFail), its transaction's log words and DoneFill, or Skip when the
// transaction has nothing at the unit, waits for Pass or Fail, sends the final outcome after a
// Pass (a Fail of another unit, at a rate) and waits for DoneCommit after a final Pass with
// writes. Transactions draw their addresses from the owner's hooks (a small pool, for
// conflicts); some are large, one in `huge_every` huge (more reads than the buffer holds:
// capacity); some reads carry a stale value; in skip bursts most transactions have nothing at
// the unit and some outcomes come late (another unit is slow), so commit ids race ahead of the
// retire pointer (the ring fills: AllocFail). At `bad_per_million` a transaction breaks the
// protocol in one of the ways the unit flags.
//
// The owner (htm_commit_unit's bench, htm_sys_part's bench) presents the offered message at its
// intake, reports the acceptance and the unit's replies, and supplies the values a core read
// (the memory). All random choices come from the owner's Rng, in a fixed order per cycle, so
// that a bench built on these cores draws the same stimulus for the same seed.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "htm/enums.h"
#include "htm/golden/commit_unit_model.h"
#include "htm/tb/stimulus.h"

namespace htm::tb {

class CuCores {
 public:
  /// Knobs of the transactions.
  struct Knobs {
    int cores = 8;                            // scripted cores
    int max_reads = 6;                        // read-set words per transaction: 0..max_reads
    int max_writes = 4;                       // write-set words: 0..max_writes
    uint32_t big_per_mille = 20;              // transactions with 4x the words
    uint32_t skip_pct = 10;                   // transactions with nothing at this unit
    uint32_t stale_pct = 5;                   // reads whose value is wrong
    uint32_t other_fail_pct = 10;             // passed transactions another unit fails
    uint32_t msg_pct = 90;                    // cycles a waiting core presents its message
    uint32_t bad_per_million = 500;           // transactions with a protocol violation
    uint32_t huge_every = 1000;               // every so many, one with BufWords + 4 reads
    uint32_t burst_start_per_million = 1000;  // cycles that start a skip burst
    uint32_t burst_end_per_million = 5000;    // cycles that end one
    uint32_t burst_skip_pct = 90;             // transactions with nothing here during a burst
    uint32_t burst_slow_pct = 20;  // of its outcomes, those sent up to min(16 * RingSize, 1000)
                                   // cycles late (another unit is slow)
  };
  struct Msg {
    CuMsg type;
    uint64_t cid, addr, data;
    bool stale;  // a ReadSet whose value is wrong on purpose (else: the memory's value)
  };
  /// The message a core offers at the intake this cycle.
  struct Offer {
    int core = 0;  // index of the core (its source is src(core))
    Msg msg;
  };
  /// Addresses: `addr` for ordinary words, `fresh` for a huge transaction's reads.
  struct Hooks {
    std::function<uint64_t()> addr;
    std::function<uint64_t()> fresh;
  };

  /// `srcs[i]` is core i's reply route (in_src); knobs.cores is srcs.size().
  CuCores(const golden::CommitUnitParams& p, Rng& rng, const Knobs& k, std::vector<uint64_t> srcs,
          Hooks hooks)
      : p_(p), k_(k), rng_(rng), srcs_(std::move(srcs)), hooks_(std::move(hooks)) {
    k_.cores = static_cast<int>(srcs_.size());
    for (int i = 0; i < k_.cores; ++i) {
      index_[srcs_[i]] = i;
    }
    Reset();
  }

  /// Every core idle, commit ids from 0 (the unit was reset).
  void Reset() {
    cores_.assign(k_.cores, Core{});
    next_cid_ = 0;
    cur_ = -1;
  }

  /// While paused, idle cores start no transaction (the others finish theirs).
  void set_paused(bool paused) { paused_ = paused; }
  /// Every core is idle.
  bool Idle() const {
    return std::all_of(cores_.begin(), cores_.end(),
                       [](const Core& c) { return c.st == St::kIdle && c.delay == 0; });
  }
  /// A huge transaction is under way (a reset now would cut it before the buffer fills).
  bool HugeUnderway() const {
    return std::any_of(cores_.begin(), cores_.end(),
                       [](const Core& c) { return c.huge && c.st != St::kIdle; });
  }
  uint64_t committed() const { return committed_; }
  uint64_t src(int core) const { return srcs_[core]; }
  int cores() const { return k_.cores; }

  /// One cycle: the cores advance, and the message presented at the intake (the same one until
  /// it is accepted), if any.
  std::optional<Offer> Next() {
    if (rng_.Chance(burst_ ? k_.burst_end_per_million : k_.burst_start_per_million, 1000000)) {
      burst_ = !burst_;
    }
    for (Core& c : cores_) {
      Step(c);
    }
    if (cur_ < 0 || !Wants(cores_[cur_])) {
      cur_ = -1;
      std::vector<int> ready;
      for (int i = 0; i < k_.cores; ++i) {
        if (Wants(cores_[i])) {
          ready.push_back(i);
        }
      }
      if (!ready.empty() && rng_.Chance(k_.msg_pct, 100)) {
        cur_ = rng_.Pick(ready);
      }
    }
    if (cur_ < 0) {
      return std::nullopt;
    }
    return Offer{cur_, Current(cores_[cur_])};
  }

  /// The intake took the offered message.
  void Accepted() {
    if (cur_ >= 0) {
      Accept(cores_[cur_]);
      cur_ = -1;
    }
  }

  /// The unit's Alloc reply.
  void AllocReply(uint64_t src, uint64_t cid, bool pass) {
    Core* c = Find(src);
    if (c != nullptr && c->st == St::kAllocWait && c->cid == cid) {
      c->st = pass ? St::kSend : St::kAlloc;
      c->delay = pass ? 0 : static_cast<int>(rng_.Below(8));
    }
  }

  /// The unit's Pass, Fail or DoneCommit.
  void Reply(uint64_t src, uint64_t cid, CuRep type) {
    Core* cp = Find(src);
    if (cp == nullptr) {
      return;
    }
    Core& c = *cp;
    // The reply may come while the core still sends a protocol violation after DoneFill.
    const bool waits = c.st == St::kWaitRep || (c.st == St::kSend && !c.outcome && c.filled);
    if (waits && c.cid == cid && type != CuRep::kDoneCommit) {
      c.outcome = true;
      if (type == CuRep::kPass) {
        const bool fail = rng_.Chance(k_.other_fail_pct, 100);
        c.msgs = {Msg{fail ? CuMsg::kFail : CuMsg::kPass, c.cid, 0, 0, false}};
        if (rng_.Chance(k_.bad_per_million, 1000000)) {
          // A protocol violation: a second outcome for the same entry.
          c.msgs.push_back(
              Msg{rng_.Chance(1, 2) ? CuMsg::kFail : CuMsg::kPass, c.cid, 0, 0, false});
        }
        c.next = 0;
        c.commit = !fail && c.writes;
        c.st = St::kSend;
        c.delay = static_cast<int>(rng_.Below(4));
        if (burst_ && rng_.Chance(k_.burst_slow_pct, 100)) {
          c.delay = static_cast<int>(
              rng_.Below(std::min<uint64_t>(16 * static_cast<uint64_t>(p_.ring_size), 1000)));
        }
      } else if (rng_.Chance(k_.bad_per_million, 1000000)) {
        // A protocol violation: an outcome for an entry this unit failed.
        c.msgs = {Msg{rng_.Chance(1, 2) ? CuMsg::kFail : CuMsg::kPass, c.cid, 0, 0, false}};
        c.next = 0;
        c.commit = false;
        c.st = St::kSend;
        c.delay = static_cast<int>(rng_.Below(2));
      } else {
        c.st = St::kIdle;
      }
    } else if ((c.st == St::kWaitDone || (c.st == St::kSend && c.outcome && c.commit)) &&
               c.cid == cid && type == CuRep::kDoneCommit) {
      // (DoneCommit may come while the core still sends a second outcome: it drops it.)
      c.st = St::kIdle;
      ++committed_;
    }
  }

 private:
  enum class St { kIdle, kAlloc, kAllocWait, kSend, kWaitRep, kWaitDone };
  struct Core {
    St st = St::kIdle;
    uint64_t cid = 0;
    std::vector<Msg> msgs;
    size_t next = 0;
    bool writes = false;   // the transaction has writes here
    bool outcome = false;  // msgs is the final outcome
    bool filled = false;   // DoneFill was taken
    bool huge = false;     // a huge transaction
    bool commit = false;   // the outcome is Pass with writes: wait for DoneCommit
    int delay = 0;
  };

  Core* Find(uint64_t src) {
    const auto it = index_.find(src);
    return it == index_.end() ? nullptr : &cores_[it->second];
  }
  bool Wants(const Core& c) const {
    return c.delay == 0 && (c.st == St::kAlloc || (c.st == St::kSend && c.next < c.msgs.size()));
  }
  static Msg Current(const Core& c) {
    return c.st == St::kAlloc ? Msg{CuMsg::kAlloc, c.cid, 0, 0, false} : c.msgs[c.next];
  }

  // Advance a core that is not waiting on the unit.
  void Step(Core& c) {
    if (c.delay > 0) {
      --c.delay;
      return;
    }
    if (c.st != St::kIdle || paused_) {
      return;
    }
    if (!rng_.Chance(1, 3)) {
      return;  // think time
    }
    c.cid = next_cid_;
    next_cid_ = (next_cid_ + 1) & golden::LowMask(p_.cid_w);
    c.msgs.clear();
    c.next = 0;
    c.writes = false;
    c.commit = false;
    c.outcome = false;
    c.filled = false;
    c.huge = false;
    if (rng_.Chance(burst_ ? k_.burst_skip_pct : k_.skip_pct, 100)) {
      c.msgs.push_back(Msg{CuMsg::kSkip, c.cid, 0, 0, false});
    } else {
      const int mul = rng_.Chance(k_.big_per_mille, 1000) ? 4 : 1;
      int nr = static_cast<int>(rng_.Below(uint64_t(k_.max_reads * mul) + 1));
      // A huge one reads fresh words: no stale value or other unit's write fails it before
      // its words have filled the buffer.
      const bool huge = k_.huge_every != 0 && ++since_huge_ >= k_.huge_every;
      since_huge_ = huge ? 0 : since_huge_;
      c.huge = huge;
      if (huge) {
        nr = p_.buf_words + 4;
      }
      const int nw = static_cast<int>(rng_.Below(uint64_t(k_.max_writes * mul) + 1));
      std::vector<uint64_t> waddrs;
      std::vector<Msg> words;
      for (int i = 0; i < nr; ++i) {
        words.push_back(Msg{CuMsg::kReadSet, c.cid, huge ? hooks_.fresh() : hooks_.addr(),
                            rng_.Bits(p_.data_w), !huge && rng_.Chance(k_.stale_pct, 100)});
      }
      for (int i = 0; i < nw; ++i) {
        const uint64_t a = hooks_.addr();
        bool dup = false;
        for (uint64_t w : waddrs) {
          dup = dup || w == a;
        }
        if (!dup) {  // the write set is a set
          waddrs.push_back(a);
          words.push_back(Msg{CuMsg::kWriteSet, c.cid, a, rng_.Bits(p_.data_w), false});
        }
      }
      // Reads and writes interleave in any order.
      for (size_t i = words.size(); i > 1; --i) {
        std::swap(words[i - 1], words[rng_.Below(i)]);
      }
      c.msgs = words;
      c.msgs.push_back(Msg{CuMsg::kDoneFill, c.cid, 0, 0, false});
      c.writes = !waddrs.empty();
    }
    if (rng_.Chance(k_.bad_per_million, 1000000)) {
      AddViolation(c);
    }
    c.st = St::kAlloc;
  }

  // Appends (or inserts) one message that breaks the protocol to a new transaction's list; the
  // unit flags it (err) and drops it, and the rest of the transaction goes on.
  void AddViolation(Core& c) {
    const uint64_t cmask = golden::LowMask(p_.cid_w);
    const bool words = c.msgs.size() > 1;  // some log words before DoneFill
    switch (rng_.Below(6)) {
      case 0:  // a word after DoneFill (or Skip)
        c.msgs.push_back(Msg{CuMsg::kReadSet, c.cid, hooks_.addr(), 0, false});
        break;
      case 1:  // a word for a cid outside the window
        c.msgs.push_back(
            Msg{CuMsg::kWriteSet, (c.cid + p_.ring_size) & cmask, hooks_.addr(), 0, false});
        break;
      case 2:  // a Skip after the first word (or after DoneFill or Skip)
        c.msgs.insert(c.msgs.begin() + (words ? 1 : static_cast<std::ptrdiff_t>(c.msgs.size())),
                      Msg{CuMsg::kSkip, c.cid, 0, 0, false});
        break;
      case 3:  // a second DoneFill (or one after Skip)
        c.msgs.push_back(Msg{CuMsg::kDoneFill, c.cid, 0, 0, false});
        break;
      case 4:  // a message type with no meaning
        c.msgs.push_back(Msg{static_cast<CuMsg>(7), c.cid, 0, 0, false});
        break;
      default:  // an outcome before this unit's reply (with words: it has not filled yet)
        c.msgs.insert(c.msgs.begin() + (words ? 1 : static_cast<std::ptrdiff_t>(c.msgs.size())),
                      Msg{rng_.Chance(1, 2) ? CuMsg::kPass : CuMsg::kFail, c.cid, 0, 0, false});
        break;
    }
  }

  void Accept(Core& c) {
    if (c.st == St::kAlloc) {
      c.st = St::kAllocWait;
      return;
    }
    c.filled = c.filled || c.msgs[c.next].type == CuMsg::kDoneFill;
    ++c.next;
    if (c.next < c.msgs.size()) {
      return;
    }
    if (c.outcome) {
      c.st = c.commit ? St::kWaitDone : St::kIdle;
    } else if (c.msgs.front().type == CuMsg::kSkip) {
      c.st = St::kIdle;
    } else {
      c.st = St::kWaitRep;
      c.outcome = true;  // the next message list is the outcome
    }
  }

  golden::CommitUnitParams p_;
  Knobs k_;
  Rng& rng_;
  std::vector<uint64_t> srcs_;
  std::unordered_map<uint64_t, int> index_;  // source -> core
  Hooks hooks_;
  std::vector<Core> cores_;
  uint64_t next_cid_ = 0;
  int cur_ = -1;
  uint64_t committed_ = 0;
  bool burst_ = false;       // a skip burst
  bool paused_ = false;      // no new transactions
  uint32_t since_huge_ = 0;  // transactions with words since the last huge one
};

}  // namespace htm::tb
