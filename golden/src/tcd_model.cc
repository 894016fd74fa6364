// SPDX-License-Identifier: Apache-2.0
#include "htm/golden/tcd_model.h"

#include <stdexcept>

namespace htm::golden {

namespace {

SigRecencyRamParams BloomParams(const TcdParams& p) {
  return SigRecencyRamParams{.addr_w = p.addr_w - p.chunk_shift,
                             .num_hashes = p.num_hashes,
                             .slots_per_hash = p.slots_per_hash,
                             .val_w = p.ts_w,
                             .hash_kind = htm::SigHash::kH3};
}

}  // namespace

std::string CheckTcdParams(const TcdParams& p) {
  if (p.addr_w < 1 || p.addr_w > 64) {
    return "AddrW must be in 1..64, got " + std::to_string(p.addr_w);
  }
  if (p.chunk_shift < 0 || p.chunk_shift >= p.addr_w) {
    return "ChunkShift must be in 0..AddrW-1, got " + std::to_string(p.chunk_shift);
  }
  if (p.ts_w < 4 || p.ts_w > 63) {
    return "TsW must be in 4..63, got " + std::to_string(p.ts_w);
  }
  if (p.scrub_interval < 2) {
    return "ScrubInterval must be at least 2, got " + std::to_string(p.scrub_interval);
  }
  if (std::string err = CheckSigRecencyRamParams(BloomParams(p)); !err.empty()) {
    return err;
  }
  const uint64_t bound = (uint64_t{1} << (p.ts_w - 2)) +
                         static_cast<uint64_t>(p.slots_per_hash) * p.scrub_interval + 2;
  if (bound >= (uint64_t{1} << (p.ts_w - 1))) {
    return "the age bound 2**(TsW-2) + SlotsPerHash * ScrubInterval + 2 = " +
           std::to_string(bound) + " must be below 2**(TsW-1): widen TsW or scrub more often";
  }
  return "";
}

const TcdParams& TcdModel::Checked(const TcdParams& p) {
  if (std::string err = CheckTcdParams(p); !err.empty()) {
    throw std::invalid_argument("htm_tcd: " + err);
  }
  return p;
}

TcdModel::TcdModel(const TcdParams& p) : p_(Checked(p)), bf_(BloomParams(p)) {
  Reset();
}

void TcdModel::Reset() {
  bf_.Reset();
  now_ = 0;
  scrub_ptr_ = 0;
  scrub_cnt_ = 0;
  since_q_ = 0;
  chk_now_q_ = 0;
}

uint64_t TcdModel::AgeBound() const {
  return StaleAge() + static_cast<uint64_t>(p_.slots_per_hash) * p_.scrub_interval + 2;
}

uint64_t TcdModel::Chunk(uint64_t addr) const {
  return TcdChunk(p_, addr);
}

SigRecencyRamIn TcdModel::BloomIn(const TcdIn& in) const {
  const bool bf_ready = bf_.ready();
  SigRecencyRamIn b;
  b.now = now_;
  b.lkp_valid = in.chk_valid && bf_ready;
  b.lkp_addr = Chunk(in.chk_addr);
  b.ins_valid = in.upd_valid && UpdReady();
  b.ins_addr = Chunk(in.upd_addr);
  b.ins_val = now_;
  b.scrub_valid = bf_ready && (ScrubForce() || !in.upd_valid);
  b.scrub_all = 0;
  b.scrub_idx = static_cast<uint64_t>(scrub_ptr_);
  return b;
}

TcdOut TcdModel::Eval(const TcdIn& in) const {
  const SigRecencyRamOut b = bf_.Eval(BloomIn(in));
  const uint64_t mask = LowMask(p_.ts_w);
  const uint64_t since_age = (chk_now_q_ - since_q_) & mask;
  const uint64_t time_age = (chk_now_q_ - b.lkp_val) & mask;
  TcdOut out;
  out.now = now_;
  out.upd_ready = UpdReady();
  out.chk_ready = bf_.ready();
  out.res_valid = b.lkp_valid;
  out.res_found = b.lkp_found;
  out.res_time = b.lkp_val;
  out.res_conflict =
      b.lkp_valid && (since_age >= StaleAge() || (b.lkp_found && time_age < since_age));
  return out;
}

void TcdModel::CountResult() {
  const SigRecencyRamOut r = bf_.Eval(SigRecencyRamIn{});  // registered: reads no input
  if (!r.lkp_valid) {
    return;
  }
  const uint64_t mask = LowMask(p_.ts_w);
  const uint64_t since_age = (chk_now_q_ - since_q_) & mask;
  if (since_age >= StaleAge()) {
    ++cover_.conflict_stale;
  } else if (!r.lkp_found) {
    ++cover_.miss;
  } else if (((chk_now_q_ - r.lkp_val) & mask) < since_age) {
    ++cover_.conflict_written;
  } else {
    ++cover_.found_older;
  }
}

void TcdModel::Tick(const TcdIn& in) {
  const SigRecencyRamIn b = BloomIn(in);
  const bool bf_ready = bf_.ready();
  const bool force = ScrubForce();
  // Coverage.
  CountResult();
  cover_.upd_stall += in.upd_valid && !b.ins_valid ? 1 : 0;
  cover_.forced_scrub += in.upd_valid && bf_ready && force ? 1 : 0;
  cover_.chk_stall += in.chk_valid && !bf_ready ? 1 : 0;
  cover_.same_chunk += b.ins_valid && b.lkp_valid && b.ins_addr == b.lkp_addr ? 1 : 0;
  cover_.time_wrap += now_ == LowMask(p_.ts_w) ? 1 : 0;
  bf_.Tick(b);
  since_q_ = in.chk_since & LowMask(p_.ts_w);
  chk_now_q_ = now_;
  now_ = (now_ + 1) & LowMask(p_.ts_w);
  if (b.scrub_valid) {
    scrub_ptr_ = (scrub_ptr_ + 1) % p_.slots_per_hash;
    scrub_cnt_ = 0;
  } else if (bf_ready && !force) {
    ++scrub_cnt_;
  }
}

void TcdModel::Idle(uint64_t k) {
  for (; k > 0 && (!bf_.ready() || k <= static_cast<uint64_t>(p_.slots_per_hash)); --k) {
    Tick(TcdIn{});
  }
  if (k == 0) {
    return;
  }
  // Ready and idle, every cycle scrubs one index (an idle cycle never forces nor skips one),
  // and every valid time is younger than AgeBound < 2**(TsW-1) at each visit. Coverage: the
  // first cycle shows the result of a check taken before; the time wraps on the way.
  CountResult();
  cover_.time_wrap += (now_ + k) >> p_.ts_w;
  bf_.IdleScrub(k, static_cast<uint64_t>(scrub_ptr_), now_);
  scrub_ptr_ = static_cast<int>((static_cast<uint64_t>(scrub_ptr_) + k) % p_.slots_per_hash);
  scrub_cnt_ = 0;
  since_q_ = 0;
  chk_now_q_ = (now_ + k - 1) & LowMask(p_.ts_w);
  now_ = (now_ + k) & LowMask(p_.ts_w);
}

}  // namespace htm::golden
