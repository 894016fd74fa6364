// SPDX-License-Identifier: Apache-2.0
//
// Golden model of htm_lds_tm (rtl/htm_lds_tm.sv), GPU-LocalTM's LDS top: NumBanks htm_lds_bank
// banks, one htm_lds_wf_ctrl per wavefront and the htm_lds_wgs_arb arbiter, composed from their
// golden models, with the top's own logic (the wavefront instruction port, bank-conflict
// serialization of an instruction's accesses, response collection, the abort and commit
// broadcasts, atomics). Cycle-exact with the RTL. See docs/htm_lds_tm.md.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "htm/enums.h"
#include "htm/golden/lds_bank_model.h"
#include "htm/golden/lds_wf_ctrl_model.h"
#include "htm/golden/ports.h"

namespace htm::golden {

#define HTM_BLOCK LdsTm
#define HTM_BLOCK_DEF "htm/golden/ports/htm_lds_tm.def"
#include "htm/golden/port_gen.inc"

/// Empty when the parameters are legal for the RTL, else a message naming the bad parameter.
std::string CheckLdsTmParams(const LdsTmParams& p);

class LdsTmModel {
 public:
  using Ports = LdsTmPorts;
  /// Throws std::invalid_argument on parameters the RTL does not accept.
  explicit LdsTmModel(const LdsTmParams& p);

  void Reset();
  LdsTmOut Eval(const LdsTmIn& in) const;
  void Tick(const LdsTmIn& in);

  const LdsTmParams& params() const { return p_; }
  int num_wf() const { return num_wf_; }
  int words() const { return p_.num_banks * p_.bank_words; }

  // Inspection (not ports).
  const LdsBankModel& bank(int b) const { return banks_[b]; }
  const LdsWfCtrlModel& wf(int w) const { return wfs_[w]; }
  /// User word `addr` of the LDS (bank addr % NumBanks, word addr / NumBanks of that bank).
  uint32_t Word(int addr) const { return banks_[addr % p_.num_banks].Word(addr / p_.num_banks); }
  /// Bank accesses accepted since reset, per bank (for throughput figures).
  const std::vector<uint64_t>& bank_accesses() const { return bank_acc_; }

 private:
  enum class At : uint8_t { kIdle, kReadOut, kWritePend };     // a bank's atomic in progress
  enum class Ob : uint8_t { kNormal, kAtomRead, kAtomWrite };  // a bank's outstanding access
  struct Slot {
    bool v = false;
    int wf = 0;
    LdsIns op = LdsIns::kLoad;
    bool tx = false;
    int buf = 0;
    uint64_t pend = 0;
    std::array<uint32_t, kMaxVec> addr{}, data{}, cmp{};
  };
  struct Buf {
    bool v = false;
    int wf = 0;
    uint64_t lanes = 0, out = 0, conf = 0, known = 0;
    std::array<uint32_t, kMaxVec> data{};
  };
  struct BankSt {
    int ob_buf = 0;
    Ob ob = Ob::kNormal;
    uint64_t ob_lanes = 0;  // the lanes the outstanding access answers (a broadcast: several)
    At at = At::kIdle;
    int at_lane = 0;
    uint32_t at_wdata = 0;
  };
  // Everything combinational in a cycle, computed from the registers and the inputs.
  static constexpr int kMaxBanks = 32;
  static constexpr int kMaxWf = 16;
  struct Comb {
    std::array<LdsBankIn, kMaxBanks> bank_in{};
    std::array<LdsBankOut, kMaxBanks> bank_out{};
    std::array<LdsWfCtrlIn, kMaxWf> wf_in{};
    std::array<LdsWfCtrlOut, kMaxWf> wf_out{};
    LdsWgsArbIn arb_in;
    LdsWgsArbOut arb_out;
    std::array<uint64_t, kMaxWf> abt_all{};  // pending and new aborts per wavefront
    bool stall = false;                      // aborts to deliver: no bank request
    int abt_wf = 0;
    int cmt_wf = -1;
    uint64_t issued_final = 0, first_issue = 0, drop = 0, pend_next = 0;
    std::array<bool, kMaxBanks> acc{};  // bank b accepts this cycle
    std::array<int, kMaxBanks> issue_lane{};
    std::array<uint64_t, kMaxBanks> issue_lanes{};  // the lanes the bank's access answers
    bool head_cpl = false;
    bool accept = false, ready = false, ins_ok = false, is_mem = false;
    uint64_t lanes = 0;  // a memory instruction's lanes, when accepted
    bool err = false;
    LdsTmOut out;
  };

  static const LdsTmParams& Checked(const LdsTmParams& p);
  bool BufComplete(int j) const;
  void Compute(const LdsTmIn& in, Comb& c) const;
  const Comb& Cached(const LdsTmIn& in) const;

  LdsTmParams p_;
  int num_wf_ = 0, wf_w_ = 0, aw_ = 0;
  std::vector<LdsBankModel> banks_;
  std::vector<LdsWfCtrlModel> wfs_;
  LdsWgsArbModel arb_;
  // registers of the top
  Slot slot_;
  std::vector<Buf> bufs_;
  int hd_ = 0, tl_ = 0, cnt_ = 0;
  std::vector<BankSt> bst_;
  std::vector<uint64_t> pa_;     // aborts waiting for the broadcast, per wavefront
  std::vector<uint64_t> tcm_q_;  // each wavefront's TCM in the cycle before
  std::vector<bool> in_try_q_;   // each wavefront was in a try in the cycle before
  bool err_ = false;
  std::vector<uint64_t> bank_acc_;
  // The last Eval's combinational values, reused by a Tick with the same inputs.
  mutable Comb cache_;
  mutable LdsTmIn cache_in_;
  mutable bool cache_valid_ = false;
};

}  // namespace htm::golden
