// SPDX-License-Identifier: Apache-2.0
#include "htm/golden/cat_model.h"

#include <stdexcept>

#include "htm/golden/sig_model.h"

namespace htm::golden {

std::string CheckCatParams(const CatParams& p) {
  auto range = [](const char* name, int v, int lo, int hi) -> std::string {
    if (v < lo || v > hi) {
      return std::string(name) + " must be in " + std::to_string(lo) + ".." + std::to_string(hi) +
             ", got " + std::to_string(v);
    }
    return "";
  };
  for (const std::string& err :
       {range("AddrW", p.addr_w, 1, 62), range("Sets", p.sets, 1, 1 << 20),
        range("Ways", p.ways, 1, 64), range("WarpSize", p.warp_size, 1, 64),
        range("NumPorts", p.num_ports, 1, p.warp_size), range("Batch", p.batch, 1, kMaxVec)}) {
    if (!err.empty()) {
      return err;
    }
  }
  if ((p.sets & (p.sets - 1)) != 0) {
    return "Sets must be a power of two, got " + std::to_string(p.sets);
  }
  return "";
}

const CatParams& CatModel::Checked(const CatParams& p) {
  if (std::string err = CheckCatParams(p); !err.empty()) {
    throw std::invalid_argument("htm_cat: " + err);
  }
  return p;
}

CatModel::CatModel(const CatParams& p) : p_(Checked(p)) {
  Reset();
}

void CatModel::Reset() {
  if (table_.empty()) {
    table_.assign(p_.sets, Set(p_.ways));  // block RAM keeps its contents over a reset
  }
  init_ = true;
  init_set_ = 0;
  m_dlt_.assign(p_.batch, 0);
  m_rem_ = m_idx_ = 0;
  err_ = false;
  u1_valid_ = false;
  u1_ = CatDelta{};
  u1_set_ = 0;
  u_rd_.assign(p_.ways, Way{});
  used_ = 0;
  req_ = req_write_ = false;
  req_pend_ = 0;
  req_addr_.fill(0);
  l1_valid_ = l1_first_ = l1_last_ = l1_write_ = false;
  l1_lane_.assign(p_.num_ports, -1);
  l1_addr_.assign(p_.num_ports, 0);
  l1_rd_.assign(p_.num_ports, Set(p_.ways));
  acc_ = 0;
}

int CatModel::SetOf(uint64_t addr) const {
  if (p_.sets == 1) {
    return 0;
  }
  return static_cast<int>(
      SigHashIndex(SigHash::kH3, p_.addr_w, IdxWidth(p_.sets), 0, addr & LowMask(p_.addr_w)));
}

CatModel::Bits CatModel::Lookup(uint64_t addr) const {
  for (const Way& w : table_[SetOf(addr)]) {
    if (w.used() && w.addr == addr) {
      return Bits{w.r, w.w};
    }
  }
  return Bits{};
}

int CatModel::LookupLatency(int lanes) const {
  const int groups = (lanes + p_.num_ports - 1) / p_.num_ports;
  return groups < 1 ? 1 : groups;
}

CatModel::Update CatModel::ApplyUpdate() const {
  Update u;
  if (init_) {
    u.wr_en = true;
    u.wr_set = init_set_;
    u.wr_data.assign(p_.ways, Way{});
    return u;
  }
  u.wr_set = u1_set_;
  u.wr_data = u_rd_;
  if (!u1_valid_) {
    return u;
  }
  int hit = -1, free = -1;
  for (int w = 0; w < p_.ways; ++w) {
    if (hit < 0 && u_rd_[w].used() && u_rd_[w].addr == u1_.addr) {
      hit = w;
    }
    if (free < 0 && !u_rd_[w].used()) {
      free = w;
    }
  }
  if (hit >= 0) {
    Way& w = u.wr_data[hit];
    (u1_.write ? w.w : w.r) = u1_.add;
    u.freed = !u1_.add && !w.used();
    u.wr_en = true;
  } else if (u1_.add && free >= 0) {
    u.wr_data[free] = Way{u1_.addr, !u1_.write, u1_.write};
    u.alloc = u.wr_en = true;
  } else if (u1_.add) {
    u.drop = true;
  }
  return u;
}

CatModel::Group CatModel::Select(uint64_t mask) const {
  Group g;
  uint64_t left = mask & LowMask(p_.warp_size);
  for (int p = 0; p < p_.num_ports && left != 0; ++p) {
    const int lane = __builtin_ctzll(left);
    g.lanes.push_back(lane);
    left &= left - 1;
  }
  g.rest = left;
  return g;
}

uint64_t CatModel::HitsNow() const {
  uint64_t hits = 0;
  if (!l1_valid_) {
    return 0;
  }
  for (int p = 0; p < p_.num_ports; ++p) {
    if (l1_lane_[p] < 0) {
      continue;
    }
    for (const Way& w : l1_rd_[p]) {
      if (w.used() && w.addr == l1_addr_[p] && Hit(Bits{w.r, w.w}, l1_write_)) {
        hits |= uint64_t{1} << l1_lane_[p];
      }
    }
  }
  return hits;
}

CatOut CatModel::Eval(const CatIn&) const {
  const Update u = ApplyUpdate();
  CatOut o;
  o.ready = !init_;
  o.msg_ready = MsgReady();
  o.lkp_ready = LkpReady();
  o.rsp_valid = l1_valid_ && l1_last_;
  o.rsp_hit = o.rsp_valid ? (l1_first_ ? HitsNow() : (acc_ | HitsNow())) : 0;
  o.dlt_valid = u1_valid_;
  o.dlt = u1_valid_ ? u1_.Pack() : 0;
  o.drop_full = u.drop;
  o.err = err_;
  o.used = used_;
  return o;
}

void CatModel::Tick(const CatIn& in) {
  const Update u = ApplyUpdate();
  const uint64_t hits = HitsNow();
  // Lookups, stage 0 (reading the copies before this cycle's write-back: read-first).
  const bool l_acc = in.lkp_valid && LkpReady();
  const bool l_go = req_ || l_acc;
  const uint64_t l_mask = req_ ? req_pend_ : in.lkp_mask;
  const Vec& l_addr = req_ ? req_addr_ : in.lkp_addr;
  const bool l_write = req_ ? req_write_ : in.lkp_write != 0;
  const Group g = Select(l_mask);
  // Coverage.
  cover_.lkp_stall += in.lkp_valid && !LkpReady() ? 1 : 0;
  cover_.lkp_multi_group += l_acc && g.rest != 0 ? 1 : 0;
  cover_.msg_stall += in.msg_valid && !MsgReady() ? 1 : 0;
  if (l1_valid_ && l1_last_ && (l1_first_ ? hits : (acc_ | hits)) != 0) {
    ++(l1_write_ ? cover_.hit_write : cover_.hit_read);
  }
  if (l_go && u.wr_en && !init_) {
    for (const int lane : g.lanes) {
      if (SetOf(l_addr[lane] & LowMask(p_.addr_w)) == u.wr_set) {
        ++cover_.lkp_update_set;
        break;
      }
    }
  }
  cover_.bad_count += in.msg_valid && MsgReady() && in.msg_count > uint64_t(p_.batch) ? 1 : 0;
  cover_.delta_alloc += u.alloc;
  cover_.delta_drop += u.drop;
  cover_.delta_free += u.freed;
  if (l1_valid_) {
    acc_ = l1_first_ ? hits : (acc_ | hits);
  }
  l1_valid_ = l_go;
  l1_first_ = l_acc;
  l1_last_ = g.rest == 0;
  l1_write_ = l_write;
  for (int p = 0; p < p_.num_ports; ++p) {
    const bool valid = l_go && p < static_cast<int>(g.lanes.size());
    l1_lane_[p] = valid ? g.lanes[p] : -1;
    if (valid) {
      l1_addr_[p] = l_addr[g.lanes[p]] & LowMask(p_.addr_w);
      l1_rd_[p] = table_[SetOf(l1_addr_[p])];
    }
  }
  if (l_go) {
    req_ = g.rest != 0;
    req_pend_ = g.rest;
    if (l_acc) {
      req_write_ = in.lkp_write != 0;
      req_addr_ = in.lkp_addr;
    }
  }
  // Updates, stage 0: the next delta reads the update copy (write-first).
  const bool m_acc = in.msg_valid && MsgReady();
  const bool u_valid = m_rem_ != 0;
  CatDelta next;
  int next_set = 0;
  if (u_valid) {
    next = CatDelta::Unpack(m_dlt_[m_idx_]);
    next.addr &= LowMask(p_.addr_w);
    next_set = SetOf(next.addr);
    u_rd_ = (u.wr_en && u.wr_set == next_set) ? u.wr_data : table_[next_set];
    cover_.delta_forward += u1_valid_ && !init_ && u.wr_en && u.wr_set == next_set ? 1 : 0;
  }
  if (u.wr_en) {
    table_[u.wr_set] = u.wr_data;
  }
  if (u.alloc) {
    ++used_;
  } else if (u.freed) {
    --used_;
  }
  u1_valid_ = u_valid;
  if (u_valid) {
    u1_ = next;
    u1_set_ = next_set;
  }
  if (m_acc) {
    const bool bad = in.msg_count > static_cast<uint64_t>(p_.batch);
    err_ = err_ || bad;
    m_rem_ = bad ? p_.batch : static_cast<int>(in.msg_count);
    m_idx_ = 0;
    for (int i = 0; i < p_.batch; ++i) {
      m_dlt_[i] = in.msg_dlt[i] & LowMask(p_.addr_w + 2);
    }
  } else if (u_valid) {
    --m_rem_;
    ++m_idx_;
  }
  // Sweep.
  if (init_) {
    if (++init_set_ == p_.sets) {
      init_ = false;
      init_set_ = 0;
    }
  }
}

}  // namespace htm::golden
