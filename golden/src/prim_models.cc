// SPDX-License-Identifier: Apache-2.0
#include "htm/golden/prim_models.h"

#include <stdexcept>

namespace htm::golden {

namespace {

void Require(bool ok, const std::string& what) {
  if (!ok) {
    throw std::invalid_argument(what);
  }
}

}  // namespace

// ---- FifoModel
// -----------------------------------------------------------------------------------

FifoModel::FifoModel(const FifoParams& p) : p_(p) {
  Require(p.width >= 1 && p.width <= 64, "htm_fifo: Width must be in 1..64");
  Require(p.depth >= 1 && p.depth <= 4096, "htm_fifo: Depth must be in 1..4096");
  // OutReg changes only which flip-flops drive the outputs, not the cycle behaviour.
  Require(p.out_reg == 0 || p.out_reg == 1, "htm_fifo: OutReg must be 0 or 1");
}

FifoOut FifoModel::Eval(const FifoIn&) const {
  FifoOut o;
  o.in_ready = q_.size() < static_cast<size_t>(p_.depth);
  o.out_valid = !q_.empty();
  o.out_data = q_.empty() ? 0 : q_.front();
  o.count = q_.size();
  return o;
}

void FifoModel::Tick(const FifoIn& in) {
  const FifoOut o = Eval(in);
  if (in.clr) {
    q_.clear();
    return;
  }
  const bool push = in.in_valid && o.in_ready;
  const bool pop = o.out_valid && in.out_ready;
  if (pop) {
    q_.pop_front();
  }
  if (push) {
    q_.push_back(in.in_data & LowMask(p_.width));
  }
}

// ---- RrArbModel
// ----------------------------------------------------------------------------------

RrArbModel::RrArbModel(const RrArbParams& p) : p_(p) {
  Require(p.num_req >= 1 && p.num_req <= 64, "htm_rr_arb: NumReq must be in 1..64");
}

RrArbOut RrArbModel::Eval(const RrArbIn& in) const {
  RrArbOut o;
  o.prio = prio_;
  for (int k = 0; k < p_.num_req; ++k) {
    const int i = (prio_ + k) % p_.num_req;
    if ((in.req >> i) & 1U) {
      o.gnt = uint64_t{1} << i;
      o.gnt_idx = i;
      o.gnt_valid = 1;
      break;
    }
  }
  return o;
}

void RrArbModel::Tick(const RrArbIn& in) {
  const RrArbOut o = Eval(in);
  if (o.gnt_valid && in.ack) {
    prio_ = (static_cast<int>(o.gnt_idx) + 1) % p_.num_req;
  }
}

// ---- Ram1r1wModel
// --------------------------------------------------------------------------------

Ram1r1wModel::Ram1r1wModel(const Ram1r1wParams& p) : p_(p) {
  Require(p.width >= 1 && p.width <= 64, "htm_ram_1r1w: Width must be in 1..64");
  Require(p.depth >= 1 && p.depth <= (1 << 20), "htm_ram_1r1w: Depth must be in 1..2**20");
  Require(p.write_first == 0 || p.write_first == 1, "htm_ram_1r1w: WriteFirst must be 0 or 1");
  mem_.assign(p.depth, 0);
  written_.assign(p.depth, false);
}

Ram1r1wOut Ram1r1wModel::Eval(const Ram1r1wIn&) const {
  Ram1r1wOut o;
  o.rd_valid = rd_valid_;
  o.rd_data = rd_data_;
  o.rd_seen = rd_seen_;
  return o;
}

void Ram1r1wModel::Tick(const Ram1r1wIn& in) {
  rd_valid_ = in.rd_en;
  if (in.rd_en && in.rd_addr < mem_.size()) {
    if (p_.write_first != 0 && in.wr_en && in.wr_addr == in.rd_addr) {
      // Write-first: the word written in the same cycle.
      rd_data_ = in.wr_data & LowMask(p_.width);
      rd_seen_ = true;
    } else {
      // Read-first: the old word, before this cycle's write. A read of a never-written word
      // leaves rd_data undefined (the RTL's content is uninitialised), so it is not compared.
      rd_data_ = mem_[in.rd_addr];
      rd_seen_ = written_[in.rd_addr];
    }
  }
  if (in.wr_en && in.wr_addr < mem_.size()) {
    mem_[in.wr_addr] = in.wr_data & LowMask(p_.width);
    written_[in.wr_addr] = true;
  }
}

// ---- RamSpModel
// ----------------------------------------------------------------------------------

RamSpModel::RamSpModel(const RamSpParams& p) : p_(p) {
  Require(p.width >= 1 && p.width <= 64, "htm_ram_sp: Width must be in 1..64");
  Require(p.depth >= 1 && p.depth <= (1 << 20), "htm_ram_sp: Depth must be in 1..2**20");
  mem_.assign(p.depth, 0);
  written_.assign(p.depth, false);
}

RamSpOut RamSpModel::Eval(const RamSpIn&) const {
  RamSpOut o;
  o.rvalid = rvalid_;
  o.rdata = rdata_;
  o.rd_seen = rd_seen_;
  return o;
}

void RamSpModel::Tick(const RamSpIn& in) {
  rvalid_ = in.en;
  if (in.en && in.addr < mem_.size()) {
    rdata_ = mem_[in.addr];
    rd_seen_ = written_[in.addr];
    if (in.we) {
      mem_[in.addr] = in.wdata & LowMask(p_.width);
      written_[in.addr] = true;
    }
  }
}

}  // namespace htm::golden
