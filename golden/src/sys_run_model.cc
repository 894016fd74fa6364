// SPDX-License-Identifier: Apache-2.0
#include "htm/golden/sys_run_model.h"

#include <bit>
#include <stdexcept>

#include "htm/workloads/gpu/proto.h"
#include "htm/workloads/gpu/workload.h"

namespace htm::golden {
namespace {

namespace proto = ::htm::gpu::proto;

constexpr int kWlAtm = 0, kWlHt = 1, kWlEb = 2;
constexpr uint32_t kSeedSalt = 0xA5A5A5A5u;
constexpr int kMaxEbWords = 16;

// The draw unit's operand a of Draw(h, stream, index): {stream[7:0], index[23:0]}.
uint32_t DrawA(uint32_t stream, uint64_t index) {
  return (stream & 0xFFu) << 24 | static_cast<uint32_t>(index & 0xFFFFFFu);
}

}  // namespace

std::string CheckSysRunParams(const SysRunParams& p) {
  if (p.num_cores < 1 || p.num_cores > 64) {
    return "NumCores must be in 1..64, got " + std::to_string(p.num_cores);
  }
  if (!IsPow2(p.num_parts) || p.num_parts > 64) {
    return "NumParts must be a power of two in 1..64, got " + std::to_string(p.num_parts);
  }
  const int part_bits = std::countr_zero(static_cast<unsigned>(p.num_parts));
  if (p.addr_w <= part_bits || p.addr_w > 32) {
    return "AddrW must be in log2(NumParts) + 1..32, got " + std::to_string(p.addr_w);
  }
  if (p.ilv_log2 < 0 || p.ilv_log2 + part_bits > p.addr_w) {
    return "IlvLog2 must be in 0..AddrW - log2(NumParts), got " + std::to_string(p.ilv_log2);
  }
  if (p.max_reads < 1 || p.max_reads > 64) {
    return "MaxReads must be in 1..64, got " + std::to_string(p.max_reads);
  }
  if (p.max_writes < 1 || p.max_writes > 64) {
    return "MaxWrites must be in 1..64, got " + std::to_string(p.max_writes);
  }
  return "";
}

uint64_t SysRunMemWords(int wl, uint64_t threads, int objlog2, uint64_t cold) {
  const uint64_t a = uint64_t{1} << objlog2;
  switch (wl) {
    case kWlAtm:
      return 2 * a + 16;
    case kWlHt:
      return 3 * a + 2 * threads;
    case kWlEb:
      return a + cold * threads;
    default:
      return 0;
  }
}

int SysRunRefusal(const SysRunParams& p, const SysRunIn& in) {
  const int wl = static_cast<int>(in.cfg_wl & 3);
  const uint64_t threads = in.cfg_threads & LowMask(24);
  const int objlog2 = static_cast<int>(in.cfg_objlog2 & 31);
  const int r = static_cast<int>(in.cfg_reads & 31);
  const int w = static_cast<int>(in.cfg_writes & 31);
  const int c = static_cast<int>(in.cfg_cold & 31);
  if (wl == 3) {
    return 1;
  }
  if (threads == 0) {
    return 2;
  }
  if (objlog2 == 0 || objlog2 > p.addr_w) {
    return 3;
  }
  if (SysRunMemWords(wl, threads, objlog2, static_cast<uint64_t>(c)) > (uint64_t{1} << p.addr_w)) {
    return 4;
  }
  const int rows_r = wl == kWlAtm ? 3 : wl == kWlHt ? 2 : r + w + c;
  const int rows_w = wl == kWlAtm ? 2 : wl == kWlHt ? 4 : w + c;
  if (rows_r > p.max_reads || rows_w > p.max_writes) {
    return 5;
  }
  if (wl == kWlEb && (r + w + c == 0 || w > (1 << objlog2) || r > kMaxEbWords || w > kMaxEbWords ||
                      c > kMaxEbWords)) {
    return 6;
  }
  return 0;
}

const SysRunParams& SysRunModel::Checked(const SysRunParams& p) {
  if (std::string err = CheckSysRunParams(p); !err.empty()) {
    throw std::invalid_argument("htm_sys_run: " + err);
  }
  return p;
}

SysRunModel::SysRunModel(const SysRunParams& p)
    : p_(Checked(p)),
      draw_(SysDrawParams{.tag_w = p.addr_w + 1}),
      queue_(FifoParams{.width = p.addr_w + 32, .depth = kQueueDepth}) {}

void SysRunModel::Reset() {
  draw_.Reset();
  queue_.Reset();
  phase_ = Phase::kIdle;
  wl_ = objlog2_ = reads_ = writes_ = cold_ = 0;
  threads_ = seed_ = seed_hash_ = 0;
  seed_sent_ = false;
  cfg_err_ = false;
  cfg_err_code_ = 0;
  check_code_ = 0;
  check_idx_ = 0;
  ia_ = 0;
  cnt_ = 0;
  init_sum_ = 0;
  seen_busy_ = false;
  cs_ = ret_ = CState::kCStart;
  raddr_ = b_ = 0;
  w_ = sum_ = cnt_b_ = len_ = n_ = 0;
  ctr_.fill(0);
}

int SysRunModel::PartOf(uint64_t addr) const {
  return static_cast<int>((addr >> p_.ilv_log2) & static_cast<uint64_t>(p_.num_parts - 1));
}

uint64_t SysRunModel::Words() const {
  return SysRunMemWords(wl_, threads_, objlog2_, static_cast<uint64_t>(cold_));
}

SysRunOut SysRunModel::Eval(const SysRunIn& in) const {
  SysRunOut o;
  o.busy = phase_ != Phase::kIdle && phase_ != Phase::kDone;
  o.done = phase_ == Phase::kDone;
  o.cfg_err = cfg_err_;
  o.cfg_err_code = static_cast<uint64_t>(cfg_err_code_);
  // Choice: check_ok_o is high only in Done after an accepted start whose check passed (low in
  // Idle, in the other phases and after a refusal), so that it is a function of registers.
  o.check_ok = o.done && !cfg_err_ && check_code_ == kPassed;
  o.check_code = static_cast<uint64_t>(check_code_);
  o.check_idx = check_idx_;
  o.run_wl = static_cast<uint64_t>(wl_);
  o.run_threads = threads_;
  o.run_objlog2 = static_cast<uint64_t>(objlog2_);
  o.run_reads = static_cast<uint64_t>(reads_);
  o.run_writes = static_cast<uint64_t>(writes_);
  o.run_cold = static_cast<uint64_t>(cold_);
  o.run_seed_hash = seed_hash_;
  o.core_start = phase_ == Phase::kStart;
  // Choice: every partition's mt_addr_o and mt_wdata_o element carries the offered access's
  // address and data (only the valid partition's are meaningful); mt_we_o is set for the
  // partition of an Init write, clear for a Check read.
  const FifoOut q = queue_.Eval(FifoIn{});
  uint64_t addr = raddr_, wdata = 0;
  if (phase_ == Phase::kInit) {
    addr = q.out_data & LowMask(p_.addr_w);
    wdata = (q.out_data >> p_.addr_w) & LowMask(32);
    if (q.out_valid) {
      o.mt_valid = uint64_t{1} << PartOf(addr);
      o.mt_we = o.mt_valid;
    }
  } else if (phase_ == Phase::kCheck && cs_ == CState::kCRd) {
    o.mt_valid = uint64_t{1} << PartOf(raddr_);
  }
  for (int e = 0; e < p_.num_parts; ++e) {
    o.mt_addr[e] = addr;
    o.mt_wdata[e] = wdata;
  }
  const int sel = static_cast<int>(in.ctr_sel & 7);
  o.ctr = sel < kNumCounters - 1 ? ctr_[sel] : 0;
  return o;
}

void SysRunModel::Read(uint64_t addr, CState ret) {
  raddr_ = addr & LowMask(p_.addr_w);
  ret_ = ret;
  cs_ = CState::kCRd;
}

void SysRunModel::Fail(Code code, uint64_t idx) {
  check_code_ = code;
  check_idx_ = idx & LowMask(p_.addr_w);
  phase_ = Phase::kDone;
}

void SysRunModel::Tick(const SysRunIn& in) {
  const SysDrawOut dout = draw_.Eval(SysDrawIn{});
  const FifoOut qout = queue_.Eval(FifoIn{});
  SysDrawIn din{};
  FifoIn qin{};
  const Phase phase = phase_;

  // Counters: every cycle of Start and Run; the cycle counter not in Run's quiet cycle.
  // Choice: "that cycle is not counted" (Run) applies to the cycle counter only; the events of
  // the quiet cycle are counted ("events in every cycle of Start and Run").
  if (phase == Phase::kStart || phase == Phase::kRun) {
    const bool leaving = phase == Phase::kRun && in.quiet != 0 && seen_busy_;
    const uint64_t cm = LowMask(p_.num_cores), pm = LowMask(p_.num_parts);
    ctr_[0] += leaving ? 0 : 1;
    ctr_[1] += static_cast<uint64_t>(std::popcount(in.ev_commit & cm));
    ctr_[2] += static_cast<uint64_t>(std::popcount(in.ev_abort & cm));
    ctr_[3] += static_cast<uint64_t>(std::popcount(in.ev_alloc_fail & cm));
    ctr_[4] += static_cast<uint64_t>(std::popcount(in.ev_load & pm));
    ctr_[5] += static_cast<uint64_t>(std::popcount(in.ev_cu_msg & pm));
    ctr_[6] += static_cast<uint64_t>(std::popcount(in.cu_busy & pm));
  }

  const uint64_t a = Accounts();
  const uint64_t s = Words();
  switch (phase) {
    case Phase::kIdle:
    case Phase::kDone:
      if (in.start != 0) {
        // Choice: the configuration and seed are registered also when the start is refused
        // (run_*_o show them); run_seed_hash_o keeps its value until the next Seed.
        wl_ = static_cast<int>(in.cfg_wl & 3);
        threads_ = static_cast<uint32_t>(in.cfg_threads & LowMask(24));
        objlog2_ = static_cast<int>(in.cfg_objlog2 & 31);
        reads_ = static_cast<int>(in.cfg_reads & 31);
        writes_ = static_cast<int>(in.cfg_writes & 31);
        cold_ = static_cast<int>(in.cfg_cold & 31);
        seed_ = static_cast<uint32_t>(in.cfg_seed & LowMask(32));
        const int code = SysRunRefusal(p_, in);
        cfg_err_ = code != 0;
        cfg_err_code_ = code;
        check_code_ = 0;
        check_idx_ = 0;
        ctr_.fill(0);
        // Choice: Init's and Run's registers (ia, cnt, init_sum, seen_busy) are cleared at a
        // taken start.
        seed_sent_ = false;
        ia_ = 0;
        cnt_ = 0;
        init_sum_ = 0;
        seen_busy_ = false;
        phase_ = code != 0 ? Phase::kDone : Phase::kSeed;
      }
      break;
    case Phase::kSeed:
      // Choice: the draws of Seed and of HKey carry tag 0 (only Init's results are told apart
      // by their tags); a word that is not drawn enters with a = 0 and b = seed_hash.
      if (!seed_sent_) {
        din.in_valid = 1;
        din.a = seed_;
        din.b = kSeedSalt;
        seed_sent_ = true;
      }
      if (dout.out_valid) {
        seed_hash_ = static_cast<uint32_t>(dout.out_value);
        phase_ = Phase::kInit;
      }
      break;
    case Phase::kInit: {
      if (ia_ == s && cnt_ == 0) {
        phase_ = Phase::kStart;
        break;
      }
      const bool issue = ia_ < s && cnt_ < kQueueDepth;
      if (issue) {
        uint32_t da = 0;
        if (wl_ == kWlAtm && ia_ < a) {
          da = DrawA(proto::kAtmBalance, ia_);
        } else if (wl_ == kWlAtm && ia_ < a + 16) {
          da = DrawA(proto::kAtmAmounts, ia_ - a);
        } else if (wl_ == kWlEb && ia_ < a) {
          da = DrawA(proto::kEbHot, ia_);
        }
        din.in_valid = 1;
        din.a = da;
        din.b = seed_hash_;
        din.in_tag = (ia_ == s - 1 ? uint64_t{1} << p_.addr_w : 0) | (ia_ & LowMask(p_.addr_w));
        ++ia_;
      }
      if (dout.out_valid) {
        const uint64_t addr = dout.out_tag & LowMask(p_.addr_w);
        const auto v = static_cast<uint32_t>(dout.out_value);
        uint32_t value = 0;
        if (wl_ == kWlAtm) {
          value = addr < a ? 1000 + (v & 0xFFFFu) : addr < a + 16 ? 1 + (v & 0xFFu) : 0;
          if (addr < a) {
            init_sum_ += value;
          }
        } else if (wl_ == kWlHt) {
          const uint64_t nodes_end = 2 * a + 2 * uint64_t{threads_};
          value =
              addr < a || (addr >= 2 * a && addr < nodes_end && (addr & 1) != 0) ? gpu::kNil : 0;
        } else {
          value = addr < a ? v : 0;
          init_sum_ += value;
        }
        qin.in_valid = 1;
        qin.in_data = addr | uint64_t{value} << p_.addr_w;
      }
      bool pop = false;
      if (qout.out_valid) {
        const int part = PartOf(qout.out_data & LowMask(p_.addr_w));
        pop = ((in.mt_ready >> part) & 1) != 0;
        qin.out_ready = pop ? 1 : 0;
      }
      cnt_ += (issue ? 1 : 0) - (pop ? 1 : 0);
      break;
    }
    case Phase::kStart:
      phase_ = Phase::kRun;
      break;
    case Phase::kRun:
      if (in.quiet == 0) {
        seen_busy_ = true;
      } else if (seen_busy_) {
        phase_ = Phase::kCheck;
        cs_ = CState::kCStart;
      }
      break;
    case Phase::kCheck:
      switch (cs_) {
        case CState::kCStart:
          sum_ = 0;
          b_ = 0;
          if (wl_ == kWlHt) {
            Read(a, CState::kHCnt);
          } else {
            Read(0, CState::kKSum);
          }
          break;
        case CState::kCRd:
          if (((in.mt_ready >> PartOf(raddr_)) & 1) != 0) {
            cs_ = CState::kCWt;
          }
          break;
        case CState::kCWt: {
          const int part = PartOf(raddr_);
          if (((in.mt_rvalid >> part) & 1) != 0) {
            w_ = static_cast<uint32_t>(in.mt_rdata[part] & LowMask(32));
            cs_ = ret_;
          }
          break;
        }
        case CState::kKSum: {
          sum_ += w_;
          const uint64_t last = wl_ == kWlAtm ? a - 1 : s - 1;
          if (raddr_ == last) {
            cs_ = CState::kKEnd;
          } else {
            Read(raddr_ + 1, CState::kKSum);
          }
          break;
        }
        case CState::kKEnd:
          if (wl_ == kWlAtm) {
            if (sum_ != init_sum_) {
              Fail(kAtmSum, 0);
            }
          } else if (sum_ != static_cast<uint32_t>(
                                 init_sum_ + threads_ * static_cast<uint32_t>(writes_ + cold_))) {
            Fail(kEbSum, 0);
          }
          phase_ = Phase::kDone;
          break;
        case CState::kHCnt:
          sum_ += w_;
          if (raddr_ == 2 * a - 1) {
            cs_ = CState::kHCntEnd;
          } else {
            Read(raddr_ + 1, CState::kHCnt);
          }
          break;
        case CState::kHCntEnd:
          // Choice: a wrong count sum is the check's first failure and ends it (Done), as every
          // other failure does; only a right one goes on to bucket 0.
          if (sum_ != threads_) {
            Fail(kHtCounts, 0);
          } else {
            Read(a, CState::kHLen);
          }
          break;
        case CState::kHLen:
          cnt_b_ = w_;
          len_ = 0;
          Read(b_, CState::kHPtr);
          break;
        case CState::kHPtr:
          n_ = w_;
          cs_ = CState::kHNode;
          break;
        case CState::kHNode:
          if (n_ == gpu::kNil) {
            if (len_ != cnt_b_) {
              Fail(kHtLength, b_);
            } else if (b_ == a - 1) {
              phase_ = Phase::kDone;
            } else {
              ++b_;
              Read(a + b_, CState::kHLen);
            }
          } else if (n_ < 2 * a || n_ >= 2 * a + 2 * uint64_t{threads_} || (n_ & 1) != 0) {
            Fail(kHtPointer, b_);
          } else if (len_ >= cnt_b_) {
            Fail(kHtLength, b_);
          } else {
            Read(n_, CState::kHKey);
          }
          break;
        case CState::kHKey:
          din.in_valid = 1;
          din.a = w_;
          din.b = proto::kHtBucketSalt;
          cs_ = CState::kHHash;
          break;
        case CState::kHHash:
          if (dout.out_valid) {
            if ((dout.out_value & (a - 1)) != b_) {
              Fail(kHtBucket, n_);
            } else {
              ++len_;
              Read(uint64_t{n_} + 1, CState::kHPtr);
            }
          }
          break;
      }
      break;
  }
  draw_.Tick(din);
  queue_.Tick(qin);
}

const char* ToString(SysRunModel::Phase p) {
  switch (p) {
    case SysRunModel::Phase::kIdle:
      return "Idle";
    case SysRunModel::Phase::kSeed:
      return "Seed";
    case SysRunModel::Phase::kInit:
      return "Init";
    case SysRunModel::Phase::kStart:
      return "Start";
    case SysRunModel::Phase::kRun:
      return "Run";
    case SysRunModel::Phase::kCheck:
      return "Check";
    case SysRunModel::Phase::kDone:
      return "Done";
  }
  return "?";
}

const char* ToString(SysRunModel::CState s) {
  static constexpr const char* kNames[] = {"CStart",  "CRd",  "CWt",  "KSum",  "KEnd", "HCnt",
                                           "HCntEnd", "HLen", "HPtr", "HNode", "HKey", "HHash"};
  return kNames[static_cast<int>(s)];
}

}  // namespace htm::golden
