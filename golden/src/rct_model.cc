// SPDX-License-Identifier: Apache-2.0
#include "htm/golden/rct_model.h"

#include <stdexcept>

#include "htm/golden/sig_model.h"

namespace htm::golden {

std::string CheckRctParams(const RctParams& p) {
  auto range = [](const char* name, int v, int lo, int hi) -> std::string {
    if (v < lo || v > hi) {
      return std::string(name) + " must be in " + std::to_string(lo) + ".." + std::to_string(hi) +
             ", got " + std::to_string(v);
    }
    return "";
  };
  for (const std::string& err :
       {range("AddrW", p.addr_w, 1, 62), range("Sets", p.sets, 1, 1 << 20),
        range("Ways", p.ways, 1, 64), range("CountW", p.count_w, 1, 16),
        range("IncQueue", p.inc_queue, 1, 64), range("Batch", p.batch, 1, kMaxVec),
        range("FlushCycles", p.flush_cycles, 1, 1 << 20)}) {
    if (!err.empty()) {
      return err;
    }
  }
  if ((p.sets & (p.sets - 1)) != 0) {
    return "Sets must be a power of two, got " + std::to_string(p.sets);
  }
  if ((p.addr_w + 2) * p.batch > 64 * kMaxVec) {
    return "a message of Batch deltas is too wide";
  }
  return "";
}

const RctParams& RctModel::Checked(const RctParams& p) {
  if (std::string err = CheckRctParams(p); !err.empty()) {
    throw std::invalid_argument("htm_rct: " + err);
  }
  return p;
}

RctModel::RctModel(const RctParams& p)
    : p_(Checked(p)), count_max_(static_cast<int>(LowMask(p.count_w))) {
  Reset();
}

void RctModel::Reset() {
  // The RAM keeps its contents over a reset; the sweep clears them.
  if (table_.empty()) {
    table_.assign(p_.sets, Set(p_.ways));
  }
  init_ = true;
  init_set_ = 0;
  rd_data_.assign(p_.ways, Way{});
  queue_.clear();
  op_q_ = dec_q_ = false;
  key_q_ = Key{};
  set_q_ = 0;
  used_ = 0;
  buf_.assign(p_.batch, 0);
  cnt_ = age_ = 0;
}

int RctModel::SetOf(uint64_t addr) const {
  if (p_.sets == 1) {
    return 0;
  }
  return static_cast<int>(
      SigHashIndex(SigHash::kH3, p_.addr_w, IdxWidth(p_.sets), 0, addr & LowMask(p_.addr_w)));
}

RctModel::Counts RctModel::Lookup(uint64_t addr) const {
  for (const Way& w : table_[SetOf(addr)]) {
    if (w.used() && w.addr == addr) {
      return Counts{w.rd, w.wr};
    }
  }
  return Counts{};
}

RctModel::Stage0 RctModel::Plan(const RctIn& in) const {
  Stage0 s;
  const bool dec_in = in.dec_valid && !init_;
  const bool inc_in = in.inc_valid && !init_;
  const Key dec_key{in.dec_addr & LowMask(p_.addr_w), in.dec_write != 0};
  const Key inc_key{in.inc_addr & LowMask(p_.addr_w), in.inc_write != 0};
  bool cancel_in = false;
  if (dec_in) {
    for (int i = 0; i < static_cast<int>(queue_.size()); ++i) {
      if (queue_[i] == dec_key) {
        s.cancel_at = i;
        break;
      }
    }
    cancel_in = s.cancel_at < 0 && inc_in && inc_key == dec_key;
    s.cancel = s.cancel_at >= 0 || cancel_in;
  }
  s.pop = !dec_in && !queue_.empty();
  const bool bypass = !dec_in && queue_.empty() && inc_in;
  s.op = (dec_in && !s.cancel) || s.pop || bypass;
  s.dec = dec_in;
  s.key = dec_in ? dec_key : (s.pop ? queue_.front() : inc_key);
  const int left = static_cast<int>(queue_.size()) - ((s.pop || s.cancel_at >= 0) ? 1 : 0);
  const bool push = inc_in && !cancel_in && !bypass;
  s.lost_queue = push && left >= p_.inc_queue;
  s.push = push && !s.lost_queue;
  return s;
}

RctModel::Stage1 RctModel::Apply() const {
  Stage1 s;
  if (init_) {
    s.wr_en = true;
    s.wr_set = init_set_;
    s.wr_data.assign(p_.ways, Way{});
    return s;
  }
  const Set& data = rd_data_;
  s.wr_set = set_q_;
  s.wr_data = data;
  if (!op_q_) {
    return s;
  }
  int hit = -1, free = -1;
  for (int w = 0; w < p_.ways; ++w) {
    if (hit < 0 && data[w].used() && data[w].addr == key_q_.addr) {
      hit = w;
    }
    if (free < 0 && !data[w].used()) {
      free = w;
    }
  }
  const bool write = key_q_.write;
  auto count = [&](Way& w) -> int& { return write ? w.wr : w.rd; };
  if (!dec_q_) {
    if (hit >= 0) {
      int& c = count(s.wr_data[hit]);
      if (c == count_max_) {
        s.lost_sat = true;
      } else {
        s.dlt_valid = c == 0;
        ++c;
        s.wr_en = true;
      }
    } else if (free >= 0) {
      Way& w = s.wr_data[free];
      w = Way{key_q_.addr, write ? 0 : 1, write ? 1 : 0};
      s.wr_en = s.alloc = s.dlt_valid = true;
    } else {
      s.lost_full = true;
    }
  } else {
    if (hit >= 0 && count(s.wr_data[hit]) != 0) {
      Way& w = s.wr_data[hit];
      int& c = count(w);
      s.dlt_valid = c == 1;
      --c;
      s.freed = !w.used();
      s.wr_en = true;
    } else {
      s.dec_ignored = true;
    }
  }
  if (s.dlt_valid) {
    s.dlt = CatDelta{key_q_.addr, write, !dec_q_}.Pack();
  }
  return s;
}

bool RctModel::Send() const {
  return cnt_ != 0 && (cnt_ == p_.batch || age_ == p_.flush_cycles - 1);
}

RctOut RctModel::Eval(const RctIn& in) const {
  const Stage0 s0 = Plan(in);
  const Stage1 s1 = Apply();
  RctOut o;
  o.ready = !init_;
  o.dlt_valid = s1.dlt_valid;
  o.dlt = s1.dlt;
  const bool send = Send();
  o.msg_valid = send;
  o.msg_count = send ? cnt_ : 0;
  o.msg_dlt.fill(0);
  if (send) {
    for (int i = 0; i < p_.batch; ++i) {
      o.msg_dlt[i] = buf_[i];
    }
  }
  o.cancel = s0.cancel;
  o.lost_queue = s0.lost_queue;
  o.lost_full = s1.lost_full;
  o.lost_sat = s1.lost_sat;
  o.dec_ignored = s1.dec_ignored;
  o.busy = op_q_ || !queue_.empty();
  o.used = used_;
  return o;
}

void RctModel::Tick(const RctIn& in) {
  const Stage0 s0 = Plan(in);
  const Stage1 s1 = Apply();
  // RAM: registered read of this cycle's operation, write-first (a set written back by
  // stage 1 in this cycle is read new), then the write.
  const int op_set = SetOf(s0.key.addr);
  // Coverage.
  cover_.input_in_sweep += init_ && (in.inc_valid || in.dec_valid) ? 1 : 0;
  cover_.inc_queued += s0.push;
  cover_.queue_full += s0.lost_queue;
  cover_.cancel_queued += s0.cancel_at >= 0 ? 1 : 0;
  cover_.cancel_arriving += s0.cancel && s0.cancel_at < 0 ? 1 : 0;
  cover_.set_forward += s0.op && op_q_ && !init_ && s1.wr_en && s1.wr_set == op_set ? 1 : 0;
  cover_.set_full += s1.lost_full;
  cover_.count_saturated += s1.lost_sat;
  cover_.dec_ignored += s1.dec_ignored;
  cover_.entry_freed += s1.freed;
  cover_.msg_full_batch += Send() && cnt_ == p_.batch ? 1 : 0;
  cover_.msg_flush += Send() && cnt_ < p_.batch ? 1 : 0;
  if (s0.op) {
    rd_data_ = (s1.wr_en && s1.wr_set == op_set) ? s1.wr_data : table_[op_set];
  }
  if (s1.wr_en) {
    table_[s1.wr_set] = s1.wr_data;
  }
  // Queue.
  if (s0.pop) {
    queue_.pop_front();
  } else if (s0.cancel_at >= 0) {
    queue_.erase(queue_.begin() + s0.cancel_at);
  }
  if (s0.push) {
    queue_.push_back(Key{in.inc_addr & LowMask(p_.addr_w), in.inc_write != 0});
  }
  // Stage 1 registers.
  op_q_ = s0.op;
  dec_q_ = s0.dec;
  key_q_ = s0.key;
  set_q_ = op_set;
  if (s1.alloc) {
    ++used_;
  } else if (s1.freed) {
    --used_;
  }
  // Messages.
  const int at = Send() ? 0 : cnt_;
  if (Send()) {
    buf_.assign(p_.batch, 0);
  }
  age_ = (at == 0 || p_.flush_cycles == 1) ? 0 : age_ + 1;
  cnt_ = at;
  if (s1.dlt_valid) {
    buf_[at] = s1.dlt;
    ++cnt_;
  }
  // Sweep.
  if (init_) {
    ++init_set_;
    if (init_set_ == p_.sets) {
      init_ = false;
      init_set_ = 0;
    }
  }
}

}  // namespace htm::golden
