// SPDX-License-Identifier: Apache-2.0
#include "htm/golden/proto_ctrl_model.h"

#include <sstream>
#include <stdexcept>

#include "htm/enums.h"
#include "htm/golden/proto_frame.h"

namespace htm::golden {
namespace {

constexpr uint8_t kOk = static_cast<uint8_t>(ProtoStatus::kOk);
constexpr uint8_t kBadCrc = static_cast<uint8_t>(ProtoStatus::kBadCrc);
constexpr uint8_t kUnknownOp = static_cast<uint8_t>(ProtoStatus::kUnknownOp);
constexpr uint8_t kBadField = static_cast<uint8_t>(ProtoStatus::kBadField);
constexpr uint8_t kBusy = static_cast<uint8_t>(ProtoStatus::kBusy);
constexpr uint8_t kBadFrame = static_cast<uint8_t>(ProtoStatus::kBadFrame);
constexpr uint8_t kOpIdent = static_cast<uint8_t>(ProtoOp::kIdent);
constexpr uint8_t kOpConfig = static_cast<uint8_t>(ProtoOp::kConfig);
constexpr uint8_t kOpStart = static_cast<uint8_t>(ProtoOp::kStart);
constexpr uint8_t kOpStatus = static_cast<uint8_t>(ProtoOp::kStatus);
constexpr uint8_t kOpCounter = static_cast<uint8_t>(ProtoOp::kCounter);

// The twenty subsystem parameters in IDENT's order.
std::array<int, proto::kIdentParams> IdentParams(const ProtoCtrlParams& p) {
  std::array<int, proto::kIdentParams> v{};
  const auto members = proto::IdentMembers(p);
  for (int i = 0; i < proto::kIdentParams; ++i) {
    v[i] = *members[i];
  }
  return v;
}

}  // namespace

std::string CheckProtoCtrlParams(const ProtoCtrlParams& p) {
  std::ostringstream os;
  const auto params = IdentParams(p);
  for (int i = 0; i < proto::kIdentParams; ++i) {
    if (params[i] < 0 || params[i] > 0xFFFF) {
      os << "htm_proto_ctrl: " << proto::kIdentParamNames[i] << " " << params[i]
         << " does not fit IDENT's 16 bits";
      return os.str();
    }
  }
  if (p.addr_w < 1 || p.addr_w > 32) {
    os << "htm_proto_ctrl: AddrW " << p.addr_w << " is not in 1..32";
  } else if (p.clk_khz < 1 || p.clk_khz > 0xFFFFFFFFLL) {
    os << "htm_proto_ctrl: ClkKhz " << p.clk_khz << " is not in 1..2^32-1";
  } else if (p.timeout_cycles < 1 || p.timeout_cycles > 0xFFFFFFFFLL) {
    os << "htm_proto_ctrl: TimeoutCycles " << p.timeout_cycles << " is not in 1..2^32-1";
  }
  return os.str();
}

ProtoCtrlModel::ProtoCtrlModel(const ProtoCtrlParams& p) : p_(p) {
  if (const std::string why = CheckProtoCtrlParams(p); !why.empty()) {
    throw std::invalid_argument(why);
  }
  int n = 0;
  for (const uint8_t b : proto::kMagic) {
    ident_[n++] = b;
  }
  ident_[n++] = proto::kVersion;
  for (int i = 0; i < 4; ++i) {
    ident_[n++] = static_cast<uint8_t>(p.clk_khz >> (8 * i));
  }
  for (const int v : IdentParams(p)) {
    ident_[n++] = static_cast<uint8_t>(v);
    ident_[n++] = static_cast<uint8_t>(v >> 8);
  }
}

void ProtoCtrlModel::Reset() {
  *this = ProtoCtrlModel(p_);
}

uint8_t ProtoCtrlModel::TxByte() const {
  if (ridx_ == rlast_) {
    return crc_;
  }
  switch (ridx_) {
    case 0:
      return proto::kRepSync;
    case 1:
      return sts_;
    case 2:
      return op_;
    default:
      break;
  }
  const int j = ridx_ - 3;
  if (op_ == kOpIdent) {
    return ident_[j];
  }
  return static_cast<uint8_t>(cap_ >> (8 * j));
}

ProtoCtrlOut ProtoCtrlModel::Eval(const ProtoCtrlIn& in) const {
  (void)in;
  ProtoCtrlOut o;
  o.tx_valid = st_ == St::kReply;
  o.tx_data = st_ == St::kReply ? TxByte() : 0;
  o.start = start_;
  o.cfg_wl = wl_;
  o.cfg_threads = threads_;
  o.cfg_objlog2 = objlog2_;
  o.cfg_reads = reads_;
  o.cfg_writes = writes_;
  o.cfg_cold = cold_;
  o.cfg_seed = seed_;
  o.ctr_sel = sel_;
  return o;
}

void ProtoCtrlModel::BeginReply(uint8_t status, bool drop) {
  st_ = St::kReply;
  sts_ = status;
  const int len = status == kOk ? proto::ReplyPayloadBytes(op_) : 0;
  rlast_ = 3 + len;
  drop_ = drop;
  ridx_ = 0;
  crc_ = 0;
}

uint8_t ProtoCtrlModel::ExecStatus(uint8_t crc_byte, const ProtoCtrlIn& in) const {
  if (crc_byte != crc_) {
    return kBadCrc;
  }
  if (op_ == kOpConfig &&
      (pay_[0] > 3 || pay_[4] > 31 || pay_[5] > 31 || pay_[6] > 31 || pay_[7] > 31)) {
    return kBadField;
  }
  if (op_ == kOpCounter && pay_[0] > 7) {
    return kBadField;
  }
  if ((op_ == kOpConfig || op_ == kOpStart) && in.busy != 0) {
    return kBusy;
  }
  return kOk;
}

// The frame's CRC byte arrived: execute (the state's captures use this cycle's inputs).
void ProtoCtrlModel::Execute(const ProtoCtrlIn& in) {
  const uint8_t status = ExecStatus(static_cast<uint8_t>(in.rx_data), in);
  if (status == kOk) {
    if (op_ == kOpConfig) {
      wl_ = pay_[0] & 3;
      threads_ = proto::LoadLe(pay_ + 1, 3);
      objlog2_ = pay_[4] & 31;
      reads_ = pay_[5] & 31;
      writes_ = pay_[6] & 31;
      cold_ = pay_[7] & 31;
      seed_ = proto::LoadLe(pay_ + 8, 4);
    }
    start_ = op_ == kOpStart;
    if (op_ == kOpStatus) {
      const uint64_t flags = (in.busy & 1) | (in.done & 1) << 1 | (in.cfg_err & 1) << 2 |
                             (in.check_ok & 1) << 3 | (in.err & 1) << 4;
      cap_ = flags | (in.cfg_err_code & 7) << 8 | (in.check_code & 7) << 16 |
             (in.check_idx & LowMask(p_.addr_w)) << 24;
    }
    if (op_ == kOpCounter) {
      sel_ = pay_[0] & 7;
      cap_ctr_ = true;
    }
  }
  BeginReply(status, false);
}

void ProtoCtrlModel::Tick(const ProtoCtrlIn& in) {
  const bool rx_any = in.rx_valid != 0 || in.rx_err != 0;
  const bool rx_byte = in.rx_valid != 0 && in.rx_err == 0;
  const uint8_t b = static_cast<uint8_t>(in.rx_data);
  const bool quiet_end = !rx_any && sil_ == p_.timeout_cycles - 1;
  // Registers whose next value does not depend on the state.
  if (cap_ctr_) {
    cap_ = in.ctr;
  }
  cap_ctr_ = false;
  start_ = false;
  const int64_t sil_next = rx_any ? 0 : sil_ + 1;
  const St st = st_;
  sil_ = sil_next;
  switch (st) {
    case St::kIdle:
      if (rx_byte && b == proto::kCmdSync) {
        st_ = St::kOp;
        op_ = 0;
        pidx_ = 0;
      }
      break;
    case St::kOp:
    case St::kPay:
    case St::kCrc:
      if (in.rx_err != 0 || quiet_end) {
        BeginReply(kBadFrame, false);
      } else if (rx_byte && st == St::kOp) {
        op_ = b;
        const int len = proto::CommandPayloadBytes(b);
        if (len < 0) {
          BeginReply(kUnknownOp, true);
        } else {
          crc_ = proto::Crc8Step(0, b);
          st_ = len == 0 ? St::kCrc : St::kPay;
        }
      } else if (rx_byte && st == St::kPay) {
        pay_[pidx_] = b;
        crc_ = proto::Crc8Step(crc_, b);
        ++pidx_;
        if (pidx_ == proto::CommandPayloadBytes(op_)) {
          st_ = St::kCrc;
        }
      } else if (rx_byte) {
        Execute(in);
      }
      break;
    case St::kReply:
      if (in.tx_ready != 0) {
        if (ridx_ == rlast_) {
          st_ = drop_ ? St::kDrop : St::kIdle;
          sil_ = 0;
        } else {
          if (ridx_ != 0) {
            crc_ = proto::Crc8Step(crc_, TxByte());
          }
          ++ridx_;
        }
      }
      break;
    case St::kDrop:
      if (quiet_end) {
        st_ = St::kIdle;
      }
      break;
  }
}

}  // namespace htm::golden
