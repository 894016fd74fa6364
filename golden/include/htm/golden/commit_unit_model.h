// SPDX-License-Identifier: Apache-2.0
//
// Golden model of htm_commit_unit (rtl/htm_commit_unit.sv), the KILO TM commit unit of one
// memory partition, cycle-exact with the RTL: intake, the word buffer with its free list,
// speculative validation, hazard detection through the Last Writer History (LwhModel, driven as
// the RTL drives its htm_lwh), the pass, commit and retire pointers. Decide() computes every
// combinational decision of a cycle from the state and the inputs; Eval() reports it and Tick()
// applies it, so the two cannot disagree. See docs/htm_commit_unit.md.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "htm/enums.h"
#include "htm/golden/coverage.h"
#include "htm/golden/lwh_model.h"
#include "htm/golden/ports.h"

namespace htm::golden {

#define HTM_BLOCK CommitUnit
#define HTM_BLOCK_DEF "htm/golden/ports/htm_commit_unit.def"
#include "htm/golden/port_gen.inc"

#define HTM_COVER_BLOCK CommitUnit
#define HTM_COVER_DEF "htm/golden/cover/htm_commit_unit.def"
#include "htm/golden/cover_gen.inc"

/// Empty when the parameters are legal for the RTL, else a message naming the bad parameter.
std::string CheckCommitUnitParams(const CommitUnitParams& p);

class CommitUnitModel {
 public:
  using Ports = CommitUnitPorts;
  /// Throws std::invalid_argument on parameters the RTL does not accept.
  explicit CommitUnitModel(const CommitUnitParams& p);

  void Reset();
  CommitUnitOut Eval(const CommitUnitIn& in) const;
  void Tick(const CommitUnitIn& in);

  const CommitUnitParams& params() const { return p_; }

  /// Event counts since construction (not cleared by Reset): coverage of the random benches
  /// and the rates benchmark's numerators.
  struct Stats {
    uint64_t cycles = 0;
    uint64_t intake = 0;         // messages accepted
    uint64_t stored = 0;         // log words stored
    uint64_t cap_fails = 0;      // words that found no free slot
    uint64_t validations = 0;    // validation reads issued (speculative and revalidation)
    uint64_t val_fails = 0;      // responses that differed from the value read
    uint64_t hazard_words = 0;   // LWH operations of the hazard-detection pointer
    uint64_t conflicts = 0;      // lookups that flagged their entry
    uint64_t revalidations = 0;  // flagged entries revalidated
    uint64_t commit_words = 0;   // commit writes issued
    uint64_t retired = 0;        // entries retired
    uint64_t errors = 0;         // protocol violations
    // Cycles in which a stage had work (the rates' denominators).
    uint64_t intake_busy = 0;   // a message was offered
    uint64_t val_busy = 0;      // a validation read was wanted (intake or revalidation)
    uint64_t hazard_busy = 0;   // the hazard pointer's entry was ready or being walked
    uint64_t commit_busy = 0;   // the commit pointer's entry was ready or being written
    uint64_t retire_busy = 0;   // the retire pointer's entry was ready or being freed
    uint64_t retire_words = 0;  // words freed
  };
  const Stats& stats() const { return stats_; }
  /// Coverage events since construction (cover/htm_commit_unit.def), then its Last Writer
  /// History's under "lwh.".
  const CommitUnitCover& cover() const { return cover_; }
  Coverage coverage() const;
  /// The last-writer history is sweeping (after reset) or scrubbing and takes no lookups: work
  /// the unit does without input, which a system model must give clock cycles.
  bool Sweeping() const { return !lwh_.ready(); }
  /// Whether cid's entry failed because a word found the buffer full (rather than, or as well
  /// as, a value mismatch): for a system model's abort statistics, while the entry is live.
  bool CapacityFailed(uint64_t cid) const;
  /// Words of the buffer not holding a log word (free list, fresh slots and buffered ones).
  int FreeWords() const;
  /// Validation tags in flight.
  int TagsInFlight() const;

 private:
  struct Word {  // one word-buffer slot: {last, next, addr, data}
    bool last = false;
    int next = 0;
    uint64_t addr = 0, data = 0;
  };
  struct Entry {  // per ring entry (flip-flops in the RTL)
    bool started = false, filled = false, skip = false, fail = false;
    bool rd_has = false, wr_has = false, conflict = false, rep_pass = false;
    bool out_pass = false, out_fail = false;
    bool cap = false;  // a word found the buffer full (the RTL's capfail bit)
    uint64_t raf = 0, conf_cid = 0, src = 0;
    int rd_head = 0, wr_head = 0;
  };
  struct Tag {
    bool valid = false;
    int idx = 0;
    uint64_t value = 0;
  };
  struct Walker {  // a list walker: its RAM copy's output register and position
    bool active = false;
    int kind = 0;  // 0: read list, 1: write list
    int slot = 0;  // slot whose word is on `rd`
    Word rd;
  };
  enum class RetireState { kIdle, kWalk, kDone };

  // Every combinational decision of one cycle.
  struct Comb {
    // intake
    int type = 0, in_idx = 0;
    bool legal = false, in_ready = false, accept = false, store = false, cap_fail = false;
    bool need_vr = false, from_fifo = false;
    int slot = 0;
    // validation request port
    bool tag_free = false, vr_valid = false, vr_fire = false, vr_from_reval = false;
    int tag = 0;
    uint64_t vr_addr = 0, vr_value = 0;
    int vr_idx = 0;
    // hazard detection
    LwhIn lwh_in;
    LwhOut lwh_out;
    bool f_adv = false, f_start = false, f_consume = false, f_rd_en = false, f_lookup = false;
    int f_kind = 0, f_raddr = 0;
    // pass
    bool p_adv = false, p_rep = false, p_rep_pass = false, p_start = false, p_rd_en = false;
    bool p_end = false, p_clear_conflict = false;
    bool p_deferred = false;  // a Pass or Fail reply waits behind DoneCommit
    int p_raddr = 0;
    // commit
    bool c_adv = false, c_valid = false, c_fire = false, c_rd_en = false, c_bubble = false;
    int c_raddr = 0;
    // retire
    bool r_start = false, r_consume = false, r_rd_en = false, r_finish = false, r_rep = false;
    bool r_ack_wait = false;  // the retire pointer waits for commit-write acknowledgements
    int r_kind = 0, r_raddr = 0, r_wcount = 0;  // r_wcount: the finishing entry's writes
    RetireState r_next = RetireState::kIdle;
    // free list
    bool fl_pop = false, fl_push = false, fl_issue = false;
    // acknowledgements
    bool ack_ok = false, ack_err = false, rsp_ok = false, rsp_err = false;
  };

  static const CommitUnitParams& Checked(const CommitUnitParams& p);
  Comb Decide(const CommitUnitIn& in) const;
  uint64_t Mask() const { return LowMask(p_.cid_w); }
  int Idx(uint64_t cid) const { return static_cast<int>(cid & (p_.ring_size - 1)); }
  uint64_t Dist(uint64_t a, uint64_t b) const { return (a - b) & Mask(); }  // (a - b) mod 2**CidW
  bool InWindow(uint64_t cid) const { return Dist(cid, ptr_r_) < uint64_t(p_.ring_size); }
  bool Pending(int idx) const;
  bool SlotAvail() const { return fresh_ < p_.buf_words || ob_cnt_ > 0; }

  CommitUnitParams p_;
  LwhModel lwh_;
  std::vector<Entry> ent_;
  int active_ = 0;  // entries started or skipped (not yet retired): busy without a scan
  std::vector<Word> buf_;
  std::vector<Tag> tags_;
  // free list: fresh slots, then a RAM FIFO with a two-word output buffer
  int fresh_ = 0;
  std::vector<int> fl_mem_;
  int fl_w_ = 0, fl_r_ = 0, fl_cnt_ = 0;
  bool fl_inflight_ = false;
  int fl_rd_ = 0;  // the free-list RAM's output register
  std::array<int, 2> ob_{};
  int ob_cnt_ = 0;
  // pointers
  uint64_t ptr_r_ = 0, ptr_c_ = 0, ptr_p_ = 0, ptr_f_ = 0;
  Walker fw_, pw_, cw_, rw_;
  RetireState r_state_ = RetireState::kIdle;
  int r_wcount_ = 0;
  // hazard lookups in flight: entry, own cid and retire-at-fill of the lookup accepted last
  // cycle (lk_) and, with LwhPipe, of the one before, whose result arrives now (hz_)
  struct Lookup {
    bool valid = false;
    int idx = 0;
    uint64_t own = 0, raf = 0;
  };
  Lookup lk_, hz_;
  // acknowledgements
  int cw_out_ = 0, ack_pool_ = 0;
  // alloc reply register
  bool arep_valid_ = false, arep_pass_ = false;
  uint64_t arep_cid_ = 0, arep_src_ = 0;
  bool err_ = false;
  Stats stats_;
  CommitUnitCover cover_;
};

}  // namespace htm::golden
