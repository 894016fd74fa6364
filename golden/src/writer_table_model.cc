// SPDX-License-Identifier: Apache-2.0
#include "htm/golden/writer_table_model.h"

#include <stdexcept>

#include "htm/golden/sig_model.h"

namespace htm::golden {

std::string CheckWriterTableParams(const WriterTableParams& p) {
  if (p.addr_w < 1 || p.addr_w > 62) {
    return "AddrW must be in 1..62, got " + std::to_string(p.addr_w);
  }
  if (p.tx_w < 1 || p.tx_w > 16) {
    return "TxW must be in 1..16, got " + std::to_string(p.tx_w);
  }
  if (p.sets < 1 || p.sets > 65536) {
    return "Sets must be in 1..65536, got " + std::to_string(p.sets);
  }
  if (p.ways < 1 || p.ways > 16) {
    return "Ways must be in 1..16, got " + std::to_string(p.ways);
  }
  return "";
}

uint64_t WriterTableSet(const WriterTableParams& p, uint64_t addr) {
  return SigFoldedSet(p.addr_w, p.sets, addr);
}

namespace {
const WriterTableParams& Checked(const WriterTableParams& p) {
  if (std::string err = CheckWriterTableParams(p); !err.empty()) {
    throw std::invalid_argument("htm_writer_table: " + err);
  }
  return p;
}
}  // namespace

WriterTableModel::WriterTableModel(const WriterTableParams& p) : p_(Checked(p)) {
  Reset();
}

void WriterTableModel::Reset() {
  sets_.assign(static_cast<size_t>(p_.sets), std::vector<WtWay>(static_cast<size_t>(p_.ways)));
  init_left_ = p_.sets;
  s1_ = false;
  s1_in_ = WriterTableIn{};
  res_ = WriterTableOut{};
  full_ = err_ = false;
  used_ = 0;
}

int64_t WriterTableModel::WriterOf(uint64_t addr) const {
  for (const WtWay& w : sets_[WriterTableSet(p_, addr)]) {
    if (w.valid && w.addr == addr) {
      return static_cast<int64_t>(w.tx);
    }
  }
  return -1;
}

WriterTableOut WriterTableModel::Eval(const WriterTableIn& in) const {
  (void)in;
  WriterTableOut o = res_;
  o.op_ready = init_left_ == 0;
  o.full = full_;
  o.used = used_;
  o.err = err_;
  return o;
}

void WriterTableModel::Tick(const WriterTableIn& in) {
  const bool acc = in.op_valid != 0 && init_left_ == 0;
  cover_.op_stall += in.op_valid != 0 && !acc ? 1 : 0;
  // Stage 1.
  res_.res_valid = s1_;
  if (s1_) {
    const WriterTableIn& op = s1_in_;
    const auto kind = static_cast<WtOp>(op.op_kind);
    const bool bad = kind != WtOp::kWrite && kind != WtOp::kRead && kind != WtOp::kRemove;
    res_.res_kind = op.op_kind;
    res_.res_addr = op.op_addr;
    res_.res_tx = op.op_tx;
    res_.res_found = res_.res_writer = res_.res_inserted = res_.res_full = res_.res_removed = 0;
    res_.res_err = bad;
    if (bad) {
      err_ = true;
      ++cover_.bad_op;
    } else {
      auto& set = sets_[WriterTableSet(p_, op.op_addr)];
      int match = -1, free = -1;
      for (int w = 0; w < p_.ways; ++w) {
        const WtWay& way = set[static_cast<size_t>(w)];
        if (way.valid && way.addr == op.op_addr) {
          match = w;
        }
        if (!way.valid && free < 0) {
          free = w;
        }
      }
      if (match >= 0) {
        res_.res_found = 1;
        res_.res_writer = set[static_cast<size_t>(match)].tx;
      }
      // Coverage.
      const bool own = match >= 0 && set[static_cast<size_t>(match)].tx == op.op_tx;
      if (kind == WtOp::kWrite && match >= 0) {
        ++(own ? cover_.write_again : cover_.write_conflict);
      } else if (kind == WtOp::kRead) {
        cover_.read_found += match >= 0 ? 1 : 0;
      } else if (kind == WtOp::kRemove) {
        cover_.remove_absent += match < 0 ? 1 : 0;
        cover_.remove_not_owner += match >= 0 && !own ? 1 : 0;
        cover_.remove += own ? 1 : 0;
        cover_.full_cleared += own && full_ ? 1 : 0;
      }
      if (kind == WtOp::kWrite && match < 0) {
        if (free >= 0) {
          set[static_cast<size_t>(free)] = {true, op.op_tx, op.op_addr};
          res_.res_inserted = 1;
          ++used_;
          cover_.table_full += used_ == static_cast<uint64_t>(p_.sets) * p_.ways ? 1 : 0;
        } else {
          res_.res_full = 1;
          full_ = true;
          ++cover_.set_full;
        }
      }
      if (kind == WtOp::kRemove && match >= 0 && set[static_cast<size_t>(match)].tx == op.op_tx) {
        set[static_cast<size_t>(match)] = WtWay{};
        res_.res_removed = 1;
        full_ = false;
        --used_;
      }
    }
  }
  if (init_left_ > 0) {
    --init_left_;
  }
  // Stage 0.
  s1_ = acc;
  if (acc) {
    s1_in_ = in;
    s1_in_.op_kind &= 3;
    s1_in_.op_addr &= LowMask(p_.addr_w);
    s1_in_.op_tx &= LowMask(p_.tx_w);
  }
}

}  // namespace htm::golden
