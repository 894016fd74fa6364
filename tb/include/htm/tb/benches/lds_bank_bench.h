// SPDX-License-Identifier: Apache-2.0
//
// Reactive stimulus for htm_lds_bank: the wavefronts of a work-group accessing one LDS bank.
//
// After reset the bench usually writes every RAM word non-transactionally (the RAM is not
// reset; the model tracks unwritten bytes either way). Then work-items send transactional
// reads and writes to a small "hot" window of words that moves now and then (so records pile
// up, signatures alias and conflicts are frequent), with some non-transactional accesses
// anywhere in the bank (rarely writes to backup and owner words) and rare out-of-range ones. A
// conflict is answered, as the wavefront control would, by an abort of that work-item a few cycles
// later, sometimes together with other work-items; wavefronts commit random masks of work-items now
// and then. A request stays presented until accepted.
#pragma once

#include <cstdint>

#include "htm/golden/lds_bank_model.h"
#include "htm/tb/stimulus.h"

namespace htm::tb {

class LdsBankBench {
 public:
  using Ports = golden::LdsBankPorts;
  using Model = golden::LdsBankModel;
  using In = golden::LdsBankIn;
  using Out = golden::LdsBankOut;

  LdsBankBench(const golden::LdsBankParams& p, uint64_t seed)
      : p_(p),
        rng_(seed),
        n_(p.bank_words),
        depth_(2 * p.bank_words + p.bank_words / 4),
        num_wf_(p.wg_size / p.wf_size) {}

  void OnReset() {
    pending_ = false;
    init_ = rng_.Chance(3, 4) ? 0 : depth_;
    abort_wait_ = 0;
    abort_wi_ = -1;
    shr_clr_ = false;
    NewWindow();
  }

  In Next() {
    In in;
    // Aborts for conflicting work-items, commits now and then.
    if (abort_wi_ >= 0 && --abort_wait_ <= 0) {
      const int wf = abort_wi_ / p_.wf_size;
      in.abt_valid = 1;
      in.abt_wf = static_cast<uint64_t>(wf);
      in.abt_mask = uint64_t{1} << (abort_wi_ % p_.wf_size);
      if (rng_.Chance(1, 4)) {
        in.abt_mask |= rng_.Bits(p_.wf_size) & rng_.Bits(p_.wf_size);
      }
      abort_wi_ = -1;
    } else if (rng_.Chance(1, 400)) {
      in.abt_valid = 1;
      in.abt_wf = rng_.Bits(golden::IdxWidth(num_wf_));
      in.abt_mask = rng_.Bits(p_.wf_size);
    }
    if (init_ >= depth_ && rng_.Chance(1, 60)) {
      in.cmt_valid = 1;
      in.cmt_wf = rng_.Bits(golden::IdxWidth(num_wf_));
      in.cmt_mask = rng_.Chance(1, 3) ? golden::LowMask(p_.wf_size) : rng_.Bits(p_.wf_size);
    }
    // SMDCD's shared-read remnants dropped in stretches (as while no try is live).
    if (rng_.Chance(1, 200)) {
      shr_clr_ = !shr_clr_;
    }
    in.shr_clr = shr_clr_ ? 1 : 0;
    if (rng_.Chance(1, 300)) {
      NewWindow();
    }
    if (!pending_) {
      Choose();
    }
    in.req_valid = pending_ ? 1 : 0;
    in.req_tx = req_.req_tx;
    in.req_we = req_.req_we;
    in.req_wi = req_.req_wi;
    in.req_addr = req_.req_addr;
    in.req_data = req_.req_data;
    return in;
  }

  void Observe(const In& in, const Out& out) {
    if (in.req_valid && out.req_ready) {
      pending_ = false;
    }
    if (out.rsp_valid && out.rsp_conflict && abort_wi_ < 0 &&
        static_cast<int>(out.rsp_wi) < p_.wg_size) {
      abort_wi_ = static_cast<int>(out.rsp_wi);
      abort_wait_ = 1 + static_cast<int>(rng_.Below(4));
    }
  }

 private:
  void NewWindow() {
    const int span = 1 + static_cast<int>(rng_.Below(n_ < 12 ? n_ : 12));
    win_lo_ = static_cast<int>(rng_.Below(static_cast<uint64_t>(n_ - span + 1)));
    win_n_ = span;
    // The active work-items: a few, sometimes of one wavefront only.
    wi_n_ = 1 + static_cast<int>(rng_.Below(p_.wg_size < 6 ? p_.wg_size : 6));
    for (int i = 0; i < wi_n_; ++i) {
      wis_[i] = static_cast<int>(rng_.Below(static_cast<uint64_t>(p_.wg_size)));
    }
  }

  void Choose() {
    pending_ = true;
    req_ = In{};
    if (init_ < depth_) {
      req_.req_we = 1;
      req_.req_addr = static_cast<uint64_t>(init_++);
      req_.req_data = rng_.Bits(32);
      return;
    }
    req_.req_data = rng_.Bits(32);
    req_.req_wi = static_cast<uint64_t>(wis_[rng_.Below(static_cast<uint64_t>(wi_n_))]);
    if (rng_.Chance(1, 500)) {
      // Out of range: any work-item id / address the port can carry.
      req_.req_wi = rng_.Bits(golden::IdxWidth(p_.wg_size));
      req_.req_addr = rng_.Bits(golden::IdxWidth(depth_));
      req_.req_tx = rng_.Bits(1);
      req_.req_we = rng_.Bits(1);
      return;
    }
    if (rng_.Chance(1, 12)) {
      req_.req_addr = rng_.Below(static_cast<uint64_t>(depth_));  // anywhere, no detection
      // Writes to the shadow area (backups, owner bytes) are rare: they void the records.
      req_.req_we = rng_.Chance(1, req_.req_addr < static_cast<uint64_t>(n_) ? 4 : 200) ? 1 : 0;
      req_.req_tx = rng_.Chance(1, 4) ? 1 : 0;  // transactional outside the data: none either
      return;
    }
    req_.req_tx = 1;
    req_.req_addr = static_cast<uint64_t>(win_lo_) + rng_.Below(static_cast<uint64_t>(win_n_));
    req_.req_we = rng_.Chance(2, 5) ? 1 : 0;
  }

  golden::LdsBankParams p_;
  Rng rng_;
  int n_, depth_, num_wf_;
  bool pending_ = false;
  bool shr_clr_ = false;
  In req_;
  int init_ = 0;
  int abort_wi_ = -1, abort_wait_ = 0;
  int win_lo_ = 0, win_n_ = 1;
  int wis_[6] = {};
  int wi_n_ = 1;
};

}  // namespace htm::tb
