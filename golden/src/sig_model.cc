// SPDX-License-Identifier: Apache-2.0
#include "htm/golden/sig_model.h"

#include <algorithm>
#include <bit>
#include <stdexcept>

#include "htm/sig_masks.h"

namespace htm::golden {

int SigIdxWidth(int slots) {
  int w = 0;
  while ((int64_t{1} << w) < slots) {
    ++w;
  }
  return std::max(w, 1);
}

uint64_t SigHashIndex(htm::SigHash kind, int addr_w, int idx_w, int h, uint64_t addr) {
  const uint64_t a = addr & LowMask(addr_w);
  if (kind == htm::SigHash::kMod) {
    return a & LowMask(idx_w);
  }
  uint64_t idx = 0;
  for (int b = 0; b < idx_w; ++b) {
    const uint64_t parity = std::popcount(a & kSigH3Masks[h][b]) & 1U;
    idx |= parity << b;
  }
  return idx;
}

uint64_t SigFoldedSet(int addr_w, int sets, uint64_t addr) {
  if (sets == 1) {
    return 0;
  }
  const uint64_t h = SigHashIndex(htm::SigHash::kH3, addr_w, SigIdxWidth(sets), 0, addr);
  const auto n = static_cast<uint64_t>(sets);
  return h >= n ? h - n : h;
}

namespace {

std::string CheckCommon(int addr_w, int num_hashes, int slots, htm::SigHash kind) {
  if (addr_w < 1 || addr_w > 64) {
    return "AddrW must be in 1..64, got " + std::to_string(addr_w);
  }
  if (num_hashes < 1 || num_hashes > kSigMaxHashes) {
    return "NumHashes must be in 1.." + std::to_string(kSigMaxHashes) + ", got " +
           std::to_string(num_hashes);
  }
  if (slots < 1 || !std::has_single_bit(static_cast<unsigned>(slots)) ||
      SigIdxWidth(slots) > kSigMaxIdxBits) {
    return "SlotsPerHash must be a power of two in 1..65536, got " + std::to_string(slots);
  }
  if (kind != htm::SigHash::kH3 && kind != htm::SigHash::kMod) {
    return "HashKind is not a sig_hash_e value";
  }
  if (kind == htm::SigHash::kMod && num_hashes != 1) {
    return "HashKind SigHashMod needs NumHashes == 1";
  }
  return "";
}

}  // namespace

std::string CheckSigParams(const SigParams& p) {
  std::string err = CheckCommon(p.addr_w, p.num_hashes, p.slots_per_hash, p.hash_kind);
  if (err.empty() && p.num_hashes * p.slots_per_hash > kMaxPortBits) {
    err = "NumHashes * SlotsPerHash must be at most 64 (width of bits_o in the harness)";
  }
  return err;
}

std::string CheckSigRecencyParams(const SigRecencyParams& p) {
  std::string err = CheckCommon(p.addr_w, p.num_hashes, p.slots_per_hash, p.hash_kind);
  if (err.empty() && (p.val_w < 1 || p.val_w > 64)) {
    err = "ValW must be in 1..64, got " + std::to_string(p.val_w);
  }
  return err;
}

std::string CheckSigRecencyRamParams(const SigRecencyRamParams& p) {
  std::string err = CheckCommon(p.addr_w, p.num_hashes, p.slots_per_hash, p.hash_kind);
  if (err.empty() && (p.val_w < 2 || p.val_w > 63)) {
    err = "ValW must be in 2..63, got " + std::to_string(p.val_w);
  }
  return err;
}

// ---- SigModel
// ------------------------------------------------------------------------------------

SigModel::SigModel(const SigParams& p) : p_(p), idx_w_(SigIdxWidth(p.slots_per_hash)) {
  if (std::string err = CheckSigParams(p); !err.empty()) {
    throw std::invalid_argument("htm_sig: " + err);
  }
  bits_.assign(static_cast<size_t>(p_.num_hashes) * p_.slots_per_hash, 0);
}

void SigModel::Reset() {
  std::fill(bits_.begin(), bits_.end(), 0);
}

uint64_t SigModel::Index(int h, uint64_t addr) const {
  const uint64_t idx = SigHashIndex(p_.hash_kind, p_.addr_w, idx_w_, h, addr);
  return p_.slots_per_hash == 1 ? 0 : idx;
}

bool SigModel::Test(uint64_t addr) const {
  for (int h = 0; h < p_.num_hashes; ++h) {
    if (!bits_[h * p_.slots_per_hash + Index(h, addr)]) {
      return false;
    }
  }
  return true;
}

SigOut SigModel::Eval(const SigIn& in) const {
  SigOut out;
  out.tst_hit = Test(in.tst_addr);
  uint64_t bits = 0;
  for (size_t i = 0; i < bits_.size(); ++i) {
    bits |= static_cast<uint64_t>(bits_[i]) << i;
  }
  out.bits = bits;
  out.empty = bits == 0;
  return out;
}

void SigModel::Tick(const SigIn& in) {
  if (in.clr) {
    std::fill(bits_.begin(), bits_.end(), 0);
  }
  if (in.ins_valid) {
    for (int h = 0; h < p_.num_hashes; ++h) {
      bits_[h * p_.slots_per_hash + Index(h, in.ins_addr)] = 1;
    }
  }
}

// ---- SigRecencyModel
// -----------------------------------------------------------------------------

SigRecencyModel::SigRecencyModel(const SigRecencyParams& p)
    : p_(p), idx_w_(SigIdxWidth(p.slots_per_hash)) {
  if (std::string err = CheckSigRecencyParams(p); !err.empty()) {
    throw std::invalid_argument("htm_sig_recency: " + err);
  }
  slots_.assign(static_cast<size_t>(p_.num_hashes) * p_.slots_per_hash, 0);
}

void SigRecencyModel::Reset() {
  std::fill(slots_.begin(), slots_.end(), 0);
}

uint64_t SigRecencyModel::Index(int h, uint64_t addr) const {
  const uint64_t idx = SigHashIndex(p_.hash_kind, p_.addr_w, idx_w_, h, addr);
  return p_.slots_per_hash == 1 ? 0 : idx;
}

uint64_t SigRecencyModel::Lookup(uint64_t addr) const {
  uint64_t v = ~uint64_t{0};
  for (int h = 0; h < p_.num_hashes; ++h) {
    v = std::min(v, slots_[h * p_.slots_per_hash + Index(h, addr)]);
  }
  return v;
}

SigRecencyOut SigRecencyModel::Eval(const SigRecencyIn& in) const {
  SigRecencyOut out;
  out.lkp_val = Lookup(in.lkp_addr);
  return out;
}

void SigRecencyModel::Tick(const SigRecencyIn& in) {
  if (in.clr) {
    std::fill(slots_.begin(), slots_.end(), 0);
  }
  if (in.ins_valid) {
    const uint64_t val = in.ins_val & LowMask(p_.val_w);
    for (int h = 0; h < p_.num_hashes; ++h) {
      uint64_t& slot = slots_[h * p_.slots_per_hash + Index(h, in.ins_addr)];
      slot = std::max(slot, val);
    }
  }
}

// ---- SigRecencyRamModel
// --------------------------------------------------------------------------

SigRecencyRamModel::SigRecencyRamModel(const SigRecencyRamParams& p)
    : p_(p), idx_w_(SigIdxWidth(p.slots_per_hash)) {
  if (std::string err = CheckSigRecencyRamParams(p); !err.empty()) {
    throw std::invalid_argument("htm_sig_recency_ram: " + err);
  }
  Reset();
}

void SigRecencyRamModel::Reset() {
  // The RAM words are unknown after reset; the initial sweep invalidates them before any
  // request is accepted, so they are modelled as invalid from the start.
  slots_.assign(static_cast<size_t>(p_.num_hashes) * p_.slots_per_hash, Slot{});
  init_ = true;
  init_idx_ = 0;
  lkp_valid_ = lkp_found_ = false;
  lkp_val_ = 0;
}

uint64_t SigRecencyRamModel::Index(int h, uint64_t addr) const {
  const uint64_t idx = SigHashIndex(p_.hash_kind, p_.addr_w, idx_w_, h, addr);
  return p_.slots_per_hash == 1 ? 0 : idx;
}

bool SigRecencyRamModel::Lookup(uint64_t addr, uint64_t now, uint64_t* val) const {
  bool found = true;
  uint64_t oldest = 0, oldest_age = 0;
  for (int h = 0; h < p_.num_hashes; ++h) {
    const Slot& s = slots_[h * p_.slots_per_hash + Index(h, addr)];
    found = found && s.valid;
    if (h == 0 || Age(now, s.val) > oldest_age) {
      oldest = s.val;
      oldest_age = Age(now, s.val);
    }
  }
  *val = found ? oldest : 0;
  return found;
}

SigRecencyRamOut SigRecencyRamModel::Eval(const SigRecencyRamIn& /*in*/) const {
  SigRecencyRamOut out;
  out.ready = !init_;
  out.lkp_valid = lkp_valid_;
  out.lkp_found = lkp_found_;
  out.lkp_val = lkp_val_;
  return out;
}

void SigRecencyRamModel::Tick(const SigRecencyRamIn& in) {
  if (init_) {
    if (++init_idx_ == p_.slots_per_hash) {
      init_ = false;
    }
    lkp_valid_ = lkp_found_ = false;
    lkp_val_ = 0;
    return;
  }
  const uint64_t now = in.now & LowMask(p_.val_w);
  const uint64_t stale = uint64_t{1} << (p_.val_w - 2);
  if (in.ins_valid) {
    const uint64_t val = in.ins_val & LowMask(p_.val_w);
    for (int h = 0; h < p_.num_hashes; ++h) {
      Slot& s = slots_[h * p_.slots_per_hash + Index(h, in.ins_addr)];
      if (!s.valid || Age(now, val) < Age(now, s.val)) {
        s = Slot{true, val};
      }
    }
  } else if (in.scrub_valid) {
    const uint64_t idx = p_.slots_per_hash == 1 ? 0 : in.scrub_idx;
    for (int h = 0; h < p_.num_hashes; ++h) {
      Slot& s = slots_[h * p_.slots_per_hash + idx];
      if (s.valid && (in.scrub_all || Age(now, s.val) >= stale)) {
        s.valid = false;
      }
    }
  }
  lkp_valid_ = in.lkp_valid;
  lkp_found_ = in.lkp_valid && Lookup(in.lkp_addr, now, &lkp_val_);
  if (!lkp_found_) {
    lkp_val_ = 0;
  }
}

void SigRecencyRamModel::IdleScrub(uint64_t k, uint64_t idx, uint64_t now) {
  if (k == 0) {
    return;
  }
  const uint64_t n = static_cast<uint64_t>(p_.slots_per_hash);
  const uint64_t stale = uint64_t{1} << (p_.val_w - 2);
  for (uint64_t s = 0; s < n; ++s) {
    // The last step j < k that scrubs index s: (idx + j) mod n == s.
    const uint64_t back = (idx + k - 1 + n - s % n) % n;  // steps from that visit to the last
    if (back >= k) {
      continue;  // not visited
    }
    const uint64_t j = k - 1 - back;
    for (int h = 0; h < p_.num_hashes; ++h) {
      Slot& slot = slots_[h * p_.slots_per_hash + s];
      if (slot.valid && Age(now, slot.val) + j >= stale) {
        slot.valid = false;
      }
    }
  }
  lkp_valid_ = lkp_found_ = false;
  lkp_val_ = 0;
}

}  // namespace htm::golden
