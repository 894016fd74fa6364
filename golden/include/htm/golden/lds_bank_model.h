// SPDX-License-Identifier: Apache-2.0
//
// Golden model of htm_lds_bank (rtl/htm_lds_bank.sv), one bank of GPU-LocalTM's LDS: the bank's
// RAM with its shadow area (thesis 5.2.3), the conflict detection of thesis 5.2.4 in one of four
// modes (Tables 5.3a, 5.3b, 5.4, 5.5), and the abort (restore) and commit (clear) walks.
// Cycle-exact with the RTL. See docs/htm_lds_bank.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "htm/enums.h"
#include "htm/golden/ports.h"

namespace htm::golden {

#define HTM_BLOCK LdsBank
#define HTM_BLOCK_DEF "htm/golden/ports/htm_lds_bank.def"
#include "htm/golden/port_gen.inc"

/// Empty when the parameters are legal for the RTL, else a message naming the bad parameter.
std::string CheckLdsBankParams(const LdsBankParams& p);

class LdsBankModel {
 public:
  using Ports = LdsBankPorts;
  /// Throws std::invalid_argument on parameters the RTL does not accept.
  explicit LdsBankModel(const LdsBankParams& p);

  void Reset();
  LdsBankOut Eval(const LdsBankIn& in) const;
  void Tick(const LdsBankIn& in);

  const LdsBankParams& params() const { return p_; }

  // Inspection for tests (not ports; the RTL shows the same through non-transactional reads).
  /// RAM word `addr` (data, backup or owner area).
  uint32_t Word(int addr) const { return r_.ram[addr]; }
  /// Whether word k (user data, 0..BankWords-1) has an owner record.
  bool Owned(int k) const;
  /// The owner byte of word k (meaningful when Owned(k)).
  int Owner(int k) const;
  /// SMDCD state bits of word k (S, M); 1, 1 is "not set".
  bool S(int k) const { return r_.s[k]; }
  bool M(int k) const { return r_.m[k]; }
  /// Signature bits: pRWsig of work-item wi (8 bits), sWOsig of wavefront wf (32 bits).
  uint32_t Prw(int wi) const { return r_.prw[wi]; }
  uint32_t Swo(int wf) const { return r_.swo[wf]; }
  /// Number of owner records of work-item wi (its list length).
  int Records(int wi) const;

 private:
  enum class State { kIdle, kData, kBackup, kOwnChk, kRestore };
  enum class Src { kZero, kRam, kDataQ };
  struct Regs {
    State state = State::kIdle;
    std::vector<uint32_t> ram;
    std::vector<uint8_t> known;  // per RAM word, the bytes written since reset (model only)
    uint32_t rdata = 0;          // the RAM's read register
    uint8_t rdata_known = 0;
    std::vector<bool> v, s, m;  // V (DCD, pRWsig modes) or S, M (SMDCD) per word
    std::vector<bool> shr;      // SMDCD: other readers outlived the word's owner record
    std::vector<int> nxt;       // list link per word, -1 at the end
    std::vector<int> head;      // first record of each work-item, -1 when none
    std::vector<uint8_t> prw;   // per work-item
    std::vector<uint32_t> swo;  // per wavefront
    std::vector<uint64_t> pend_abt, pend_cmt;  // bit sets over the work-items
    // the access in progress
    int wi = 0, k = 0;
    bool we = false, bk = false;
    uint32_t wdata = 0;
    int shadow = 0;
    uint32_t data_q = 0;
    uint8_t data_q_known = 0;
    // the response
    bool rsp_valid = false, rsp_conflict = false, rsp_lower = false, rsp_self = false;
    int rsp_wi = 0, rsp_shadow = 0;
    Src rsp_src = Src::kZero;
    bool err = false;
  };
  struct RamOp {
    bool en = false, we = false;
    int addr = 0;
    uint32_t wdata = 0;
    int be = 0;
  };

  static const LdsBankParams& Checked(const LdsBankParams& p);
  bool Backed(int k) const;  // word k's record has a backup
  bool AnyPend() const;
  bool Ready(const LdsBankIn& in) const;
  bool PrwHitsBelow(int wi, int k, bool* any_other) const;
  void Respond(Regs& n, bool conflict, bool lower, bool self, Src src) const;
  void Record(Regs& n, int wi, int k, bool m) const;
  void Clear(Regs& n, int k) const;

  LdsBankParams p_;
  int n_ = 0, depth_ = 0, num_wf_ = 0;
  Regs r_;
};

}  // namespace htm::golden
