// SPDX-License-Identifier: Apache-2.0
#include "htm/golden/lds_bank_model.h"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace htm::golden {

std::string CheckLdsBankParams(const LdsBankParams& p) {
  const int mode = static_cast<int>(p.mode);
  if (mode < 0 || mode > 3) {
    return "Mode is not an lds_cd_e value: " + std::to_string(mode);
  }
  if (p.bank_words < 4 || p.bank_words > 4096 || p.bank_words % 4 != 0) {
    return "BankWords must be a multiple of 4 in 4..4096, got " + std::to_string(p.bank_words);
  }
  if (p.wf_size < 1 || p.wf_size > 64 || (p.wf_size & (p.wf_size - 1)) != 0) {
    return "WfSize must be a power of two in 1..64, got " + std::to_string(p.wf_size);
  }
  if (p.wg_size < p.wf_size || p.wg_size > 256 || p.wg_size % p.wf_size != 0) {
    return "WgSize must be a multiple of WfSize in WfSize..256, got " + std::to_string(p.wg_size);
  }
  return "";
}

const LdsBankParams& LdsBankModel::Checked(const LdsBankParams& p) {
  if (std::string err = CheckLdsBankParams(p); !err.empty()) {
    throw std::invalid_argument("htm_lds_bank: " + err);
  }
  return p;
}

LdsBankModel::LdsBankModel(const LdsBankParams& p) : p_(Checked(p)) {
  n_ = p_.bank_words;
  depth_ = 2 * n_ + n_ / 4;
  num_wf_ = p_.wg_size / p_.wf_size;
  Reset();
}

void LdsBankModel::Reset() {
  r_ = Regs{};
  r_.ram.assign(depth_, 0);
  r_.known.assign(depth_, 0);
  const bool sm = p_.mode == LdsCd::kSmdcd;
  r_.v.assign(n_, false);
  r_.s.assign(n_, sm);
  r_.m.assign(n_, sm);
  r_.shr.assign(n_, false);
  r_.nxt.assign(n_, -1);
  r_.head.assign(p_.wg_size, -1);
  r_.prw.assign(p_.wg_size, 0);
  r_.swo.assign(num_wf_, 0);
  r_.pend_abt.assign((p_.wg_size + 63) / 64, 0);
  r_.pend_cmt.assign((p_.wg_size + 63) / 64, 0);
}

bool LdsBankModel::Owned(int k) const {
  return p_.mode == LdsCd::kSmdcd ? !(r_.s[k] && r_.m[k]) : static_cast<bool>(r_.v[k]);
}

int LdsBankModel::Owner(int k) const {
  return static_cast<int>((r_.ram[2 * n_ + k / 4] >> (8 * (k % 4))) & 0xff);
}

int LdsBankModel::Records(int wi) const {
  int c = 0;
  for (int k = r_.head[wi]; k >= 0; k = r_.nxt[k]) {
    ++c;
  }
  return c;
}

bool LdsBankModel::Backed(int k) const {
  return p_.mode == LdsCd::kSmdcd ? static_cast<bool>(r_.m[k]) : true;
}

bool LdsBankModel::AnyPend() const {
  for (size_t g = 0; g < r_.pend_abt.size(); ++g) {
    if ((r_.pend_abt[g] | r_.pend_cmt[g]) != 0) {
      return true;
    }
  }
  return false;
}

bool LdsBankModel::Ready(const LdsBankIn& in) const {
  return r_.state == State::kIdle && !AnyPend() && !in.abt_valid && !in.cmt_valid;
}

LdsBankOut LdsBankModel::Eval(const LdsBankIn& in) const {
  LdsBankOut o;
  o.req_ready = Ready(in);
  o.rsp_valid = r_.rsp_valid;
  o.rsp_wi = static_cast<uint64_t>(r_.rsp_wi);
  switch (r_.rsp_src) {
    case Src::kRam:
      o.rsp_data = r_.rdata;
      o.rsp_known = r_.rdata_known == 0xf;
      break;
    case Src::kDataQ:
      o.rsp_data = r_.data_q;
      o.rsp_known = r_.data_q_known == 0xf;
      break;
    default:
      o.rsp_data = 0;
      o.rsp_known = 1;
      break;
  }
  o.rsp_conflict = r_.rsp_conflict;
  o.rsp_lower = r_.rsp_lower;
  o.rsp_self = r_.rsp_self;
  o.rsp_shadow = static_cast<uint64_t>(r_.rsp_shadow);
  o.busy = r_.state != State::kIdle || AnyPend();
  o.err = r_.err;
  return o;
}

// Other work-items' pRWsig hits for word k: *any_other, and whether one of them is below wi.
bool LdsBankModel::PrwHitsBelow(int wi, int k, bool* any_other) const {
  const int h = k % 8;
  bool below = false;
  *any_other = false;
  for (int j = 0; j < p_.wg_size; ++j) {
    if (j != wi && ((r_.prw[j] >> h) & 1)) {
      *any_other = true;
      below = below || j < wi;
    }
  }
  return below;
}

void LdsBankModel::Respond(Regs& n, bool conflict, bool lower, bool self, Src src) const {
  n.state = State::kIdle;
  n.rsp_valid = true;
  n.rsp_wi = n.wi;
  n.rsp_conflict = conflict;
  n.rsp_lower = lower;
  n.rsp_self = self;
  n.rsp_shadow = n.shadow;
  n.rsp_src = src;
}

// A new owner record of wi for word k: state bits set, pushed on wi's list.
void LdsBankModel::Record(Regs& n, int wi, int k, bool m) const {
  if (p_.mode == LdsCd::kSmdcd) {
    n.s[k] = false;
    n.m[k] = m;
  } else {
    n.v[k] = true;
  }
  n.nxt[k] = n.head[wi];
  n.head[wi] = k;
}

void LdsBankModel::Clear(Regs& n, int k) const {
  if (p_.mode == LdsCd::kSmdcd) {
    if (r_.s[k] && !r_.m[k]) {
      n.shr[k] = true;  // read by others too: they stay protected against writers
    }
    n.s[k] = true;
    n.m[k] = true;
  } else {
    n.v[k] = false;
  }
}

void LdsBankModel::Tick(const LdsBankIn& in) {
  if (r_.state == State::kIdle && !in.req_valid && !in.abt_valid && !in.cmt_valid && !AnyPend()) {
    // Nothing happens but the end of a response pulse (the common case, without the copy).
    r_.rsp_valid = false;
    r_.err = false;
    if (in.shr_clr) {
      std::fill(r_.shr.begin(), r_.shr.end(), false);
    }
    return;
  }
  Regs n = r_;
  n.rsp_valid = false;
  n.err = false;
  RamOp op;
  const int owner_base = 2 * n_;
  auto access = [&](int addr, bool we, uint32_t data) {
    op.en = true;
    op.we = we;
    op.addr = addr;
    op.wdata = data;
    op.be = we ? 0xf : 0;
  };

  switch (r_.state) {
    case State::kIdle: {
      if (Ready(in) && in.req_valid) {
        // Accept a request.
        const int wi = static_cast<int>(in.req_wi);
        const int addr = static_cast<int>(in.req_addr);
        const bool we = in.req_we != 0;
        const auto wdata = static_cast<uint32_t>(in.req_data);
        n.wi = wi;
        n.k = addr;
        n.we = we;
        n.wdata = wdata;
        n.shadow = 0;
        n.bk = false;
        if (wi >= p_.wg_size || addr >= depth_) {
          n.err = true;
          Respond(n, false, false, false, Src::kZero);
          break;
        }
        if (!in.req_tx || addr >= n_) {
          access(addr, we, wdata);
          Respond(n, false, false, false, Src::kRam);
          break;
        }
        const int k = addr;
        const bool set = Owned(k);
        const int wf = wi / p_.wf_size;
        const uint8_t hb = static_cast<uint8_t>(1u << (k % 8));
        const uint32_t wb = uint32_t{1} << (k % 32);
        // What the access does next.
        enum class Do { kFresh, kOwnChk, kPlain, kConflict } act = Do::kPlain;
        bool lower = false;
        bool backup = true;
        switch (p_.mode) {
          case LdsCd::kDcd:
            act = set ? Do::kOwnChk : Do::kFresh;
            break;
          case LdsCd::kSmdcd:
            act = set ? Do::kOwnChk : Do::kFresh;
            backup = we;
            if (!set && r_.shr[k] && !in.shr_clr) {
              // Readers outlived the owner: reads proceed (no record), writes conflict.
              act = we ? Do::kConflict : Do::kPlain;
            }
            break;
          case LdsCd::kDcdPrw: {
            bool other = false;
            lower = PrwHitsBelow(wi, k, &other);
            if (other) {
              act = Do::kConflict;
            } else {
              n.prw[wi] |= hb;
              act = set ? Do::kPlain : Do::kFresh;
            }
            break;
          }
          default: {  // kDcdPrwSwo
            bool other = false;
            lower = PrwHitsBelow(wi, k, &other);
            const bool wi_hit = (r_.prw[wi] & hb) != 0;
            const bool wf_hit = (r_.swo[wf] & wb) != 0;
            bool owf_hit = false;
            for (int f = 0; f < num_wf_; ++f) {
              owf_hit = owf_hit || (f != wf && (r_.swo[f] & wb) != 0);
            }
            if (!other) {
              n.prw[wi] |= hb;
              if (we) {
                n.swo[wf] |= wb;
                act = set ? Do::kPlain : Do::kFresh;
              } else {
                act = Do::kPlain;
              }
            } else if (!wf_hit && !owf_hit && !we) {
              n.prw[wi] |= hb;  // read-read: filtered (Table 5.5 rows 6 and 12)
              act = Do::kPlain;
            } else if (wf_hit && wi_hit) {
              act = set ? Do::kOwnChk : Do::kConflict;  // rows 16, 17: the owner decides
            } else {
              act = Do::kConflict;
            }
            break;
          }
        }
        switch (act) {
          case Do::kFresh:
            Record(n, wi, k, we);
            op.en = op.we = true;
            op.addr = owner_base + k / 4;
            op.wdata = static_cast<uint32_t>(wi & 0xff) * 0x01010101u;
            op.be = 1 << (k % 4);
            n.bk = backup;
            n.shadow = backup ? 2 : 1;
            n.state = State::kData;
            break;
          case Do::kOwnChk:
            access(owner_base + k / 4, false, 0);
            n.shadow = 1;
            n.state = State::kOwnChk;
            break;
          case Do::kPlain:
            access(k, we, wdata);
            Respond(n, false, false, false, Src::kRam);
            break;
          default:
            Respond(n, true, lower, false, Src::kZero);
            break;
        }
      } else if (AnyPend()) {
        // One step of the abort/commit walk: the lowest pending work-item's first record.
        size_t g = 0;
        while ((r_.pend_abt[g] | r_.pend_cmt[g]) == 0) {
          ++g;
        }
        const int wi = static_cast<int>(g) * 64 + std::countr_zero(r_.pend_abt[g] | r_.pend_cmt[g]);
        const int k = r_.head[wi];
        const bool restore = ((r_.pend_abt[g] >> (wi % 64)) & 1) != 0 && Backed(k);
        Clear(n, k);
        n.head[wi] = r_.nxt[k];
        if (restore) {
          access(n_ + k, false, 0);
          n.k = k;
          n.state = State::kRestore;
        }
      }
      break;
    }
    case State::kData:
      access(r_.k, r_.we, r_.wdata);
      if (r_.bk) {
        n.state = State::kBackup;
      } else {
        Respond(n, false, false, false, Src::kRam);
      }
      break;
    case State::kBackup:
      access(n_ + r_.k, true, r_.rdata);
      n.data_q = r_.rdata;
      n.data_q_known = r_.rdata_known;
      Respond(n, false, false, false, Src::kDataQ);
      break;
    case State::kOwnChk: {
      const int k = r_.k;
      const int owner = static_cast<int>((r_.rdata >> (8 * (k % 4))) & 0xff);
      const bool mine = owner == r_.wi;
      const bool lower = owner < r_.wi;
      if (p_.mode != LdsCd::kSmdcd) {
        if (mine) {
          access(k, r_.we, r_.wdata);
          Respond(n, false, false, false, Src::kRam);
        } else {
          Respond(n, true, lower, false, Src::kZero);
        }
        break;
      }
      const bool s = r_.s[k];
      const bool m = r_.m[k];
      if (mine && !s) {
        access(k, r_.we, r_.wdata);
        if (r_.we && !m) {
          n.m[k] = true;  // first write of a word the owner read: back it up now
          n.shadow = 2;
          n.state = State::kBackup;
        } else {
          Respond(n, false, false, false, Src::kRam);
        }
      } else if (!r_.we && !m) {
        if (!mine) {
          n.s[k] = true;
        }
        access(k, false, 0);
        Respond(n, false, false, false, Src::kRam);
      } else {
        Respond(n, true, !mine && lower, mine, Src::kZero);
      }
      break;
    }
    case State::kRestore:
      access(r_.k, true, r_.rdata);
      n.state = State::kIdle;
      break;
  }

  // Aborts and commits arriving (every state).
  auto arrive = [&](uint64_t wf64, uint64_t mask, bool abort) {
    const int wf = static_cast<int>(wf64);
    if (wf >= num_wf_) {
      n.err = true;
      return;
    }
    for (int l = 0; l < p_.wf_size; ++l) {
      if ((mask >> l) & 1) {
        const int wi = wf * p_.wf_size + l;
        n.prw[wi] = 0;
        (abort ? n.pend_abt : n.pend_cmt)[wi / 64] |= uint64_t{1} << (wi % 64);
      }
    }
    if (!abort) {
      n.swo[wf] = 0;
    }
  };
  if (in.abt_valid) {
    arrive(in.abt_wf, in.abt_mask, true);
  }
  if (in.cmt_valid) {
    arrive(in.cmt_wf, in.cmt_mask, false);
  }
  if (in.shr_clr) {
    std::fill(n.shr.begin(), n.shr.end(), false);  // no reader left to protect
  }
  for (int i = 0; i < p_.wg_size; ++i) {
    if (n.head[i] < 0) {
      n.pend_abt[i / 64] &= ~(uint64_t{1} << (i % 64));
      n.pend_cmt[i / 64] &= ~(uint64_t{1} << (i % 64));
    }
  }

  // The RAM: read-first, byte-lane writes.
  if (op.en) {
    n.rdata = r_.ram[op.addr];
    n.rdata_known = r_.known[op.addr];
    if (op.we) {
      for (int b = 0; b < 4; ++b) {
        if ((op.be >> b) & 1) {
          const uint32_t lane = 0xffu << (8 * b);
          n.ram[op.addr] = (n.ram[op.addr] & ~lane) | (op.wdata & lane);
          const bool copy = r_.state == State::kBackup || r_.state == State::kRestore;
          const bool kb = !copy || ((r_.rdata_known >> b) & 1) != 0;
          n.known[op.addr] =
              static_cast<uint8_t>(kb ? n.known[op.addr] | (1 << b) : n.known[op.addr] & ~(1 << b));
        }
      }
    }
  }
  r_ = std::move(n);
}

}  // namespace htm::golden
