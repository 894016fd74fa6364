// SPDX-License-Identifier: Apache-2.0
#include "htm/golden/sys_core_model.h"

#include <bit>
#include <stdexcept>

#include "htm/workloads/gpu/proto.h"

namespace htm::golden {

namespace {

namespace proto = ::htm::gpu::proto;

// The SIMT stack of a slot (docs/htm_sys_core.md, "Composed of").
constexpr int kStackDepth = 3;
constexpr int kStackPcW = 4;
constexpr int kStackLogW = 1;
// cfg_wl_i's value that names no workload.
constexpr uint64_t kNoWorkload = 3;
constexpr uint32_t kTidMask = 0xFFFFFFu;
constexpr uint64_t kBaseMask = (uint64_t{1} << 25) - 1;

int Lowest(uint64_t bits) {
  return std::countr_zero(bits);
}

uint64_t Bit(int i) {
  return uint64_t{1} << i;
}

SysWl Wl(const SysCoreIn& in) {
  return static_cast<SysWl>(in.cfg_wl);
}

// The workload's commit and exit pcs.
uint64_t CommitPc(SysWl wl) {
  return wl == SysWl::kHt ? 7 : 6;
}
uint64_t ExitPc(SysWl wl) {
  return CommitPc(wl) + 1;
}

uint32_t Objects(const SysCoreIn& in) {
  return uint32_t{1} << (in.cfg_objlog2 & 31);
}

// A command of a slot's SIMT stack. The page names no log pointer for the stack: cmd_log is 0 in
// every command (the core keeps its own row counts).
TxSimtStackIn StackCmd(SimtOp op, uint64_t mask, uint64_t pc, uint64_t rpc) {
  TxSimtStackIn s;
  s.cmd_valid = 1;
  s.cmd_op = static_cast<uint64_t>(op);
  s.cmd_mask = mask;
  s.cmd_pc = pc;
  s.cmd_rpc = rpc;
  return s;
}

}  // namespace

const char* SysCoreModel::ToString(SlotState s) {
  switch (s) {
    case kSIdle:
      return "SIdle";
    case kSBatch:
      return "SBatch";
    case kSSetupWait:
      return "SSetupWait";
    case kSSetup:
      return "SSetup";
    case kSInit:
      return "SInit";
    case kSTxBegin:
      return "STxBegin";
    case kSExec:
      return "SExec";
    case kSLoad:
      return "SLoad";
    case kSStore:
      return "SStore";
    case kSCommitWait:
      return "SCommitWait";
    case kSAfter:
      return "SAfter";
    case kSDone:
      return "SDone";
  }
  return "?";
}

SysPartParams SysCoreMsgParams(const SysCoreParams& p) {
  SysPartParams m{};
  m.num_parts = p.num_parts;
  m.addr_w = p.addr_w;
  m.data_w = 32;
  m.ilv_log2 = p.ilv_log2;
  m.core_w = IdxWidth(p.num_cores);
  m.route_w = SysCoreRouteW(p);
  m.cid_w = p.cid_w;
  return m;
}

std::string CheckSysCoreParams(const SysCoreParams& p) {
  if (p.num_cores < 1 || p.num_cores > 64) {
    return "NumCores must be in 1..64, got " + std::to_string(p.num_cores);
  }
  if (p.num_warps < 1 || p.num_warps > 64) {
    return "NumWarps must be in 1..64, got " + std::to_string(p.num_warps);
  }
  if (p.warp_size < 1 || p.warp_size > 32) {
    return "WarpSize must be in 1..32, got " + std::to_string(p.warp_size);
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
  if (p.cid_w < 1 || p.cid_w > 32) {
    return "CidW must be in 1..32, got " + std::to_string(p.cid_w);
  }
  if (p.max_reads < 1 || p.max_reads > 64) {
    return "MaxReads must be in 1..64, got " + std::to_string(p.max_reads);
  }
  if (p.max_writes < 1 || p.max_writes > 64) {
    return "MaxWrites must be in 1..64, got " + std::to_string(p.max_writes);
  }
  if (p.alloc_retry < 1 || p.alloc_retry > 65536) {
    return "AllocRetry must be in 1..65536, got " + std::to_string(p.alloc_retry);
  }
  const int route_w = SysCoreRouteW(p);
  if (IdxWidth(p.num_cores) + route_w > 32) {
    return "idx_width(NumCores) + RouteW must not exceed 32 (the commit unit's SrcW)";
  }
  const int req_w = SysPartReqW(p.cid_w, route_w, p.addr_w, 32);
  if (req_w > kMaxPortBits) {
    return "a request ({kind, type, cid, route, addr, data}, " + std::to_string(req_w) +
           " bits) must fit the harness's 64-bit ports: narrow CidW, AddrW or the route";
  }
  return "";
}

const SysCoreParams& SysCoreModel::Checked(const SysCoreParams& p) {
  if (std::string err = CheckSysCoreParams(p); !err.empty()) {
    throw std::invalid_argument("htm_sys_core: " + err);
  }
  return p;
}

SysCoreModel::SysCoreModel(const SysCoreParams& p)
    : p_(Checked(p)),
      mp_(SysCoreMsgParams(p)),
      lane_w_(IdxWidth(p.warp_size)),
      lanes_all_(LowMask(p.warp_size)),
      parts_all_(LowMask(p.num_parts)),
      draw_(SysDrawParams{.tag_w = 1 + IdxWidth(p.warp_size) + 2}),
      draw_arb_(RrArbParams{.num_req = p.num_warps}),
      walk_arb_(RrArbParams{.num_req = p.num_warps}),
      load_arb_(RrArbParams{.num_req = p.num_warps}) {
  const size_t ws = static_cast<size_t>(p.warp_size);
  slots_.resize(p.num_warps);
  for (Slot& s : slots_) {
    for (int i = 0; i < 3; ++i) {
      s.c[i].assign(ws, 0);
      s.r[i].assign(ws, 0);
    }
    s.rl_addr.assign(ws * p.max_reads, 0);
    s.rl_val.assign(ws * p.max_reads, 0);
    s.wl_addr.assign(ws * p.max_writes, 0);
    s.wl_val.assign(ws * p.max_writes, 0);
  }
  for (int s = 0; s < p.num_warps; ++s) {
    stacks_.emplace_back(TxSimtStackParams{
        .warp_size = p.warp_size, .depth = kStackDepth, .pc_w = kStackPcW, .log_w = kStackLogW});
  }
  cid_.assign(ws, 0);
  for (auto* v : {&arep_, &aok_, &touched_, &written_, &vrep_, &vok_, &dc_}) {
    v->assign(ws, 0);
  }
  Reset();
}

void SysCoreModel::Reset() {
  for (Slot& s : slots_) {
    s.state = kSIdle;
    s.base = 0;
    s.amask = s.rem = s.pend = 0;
    s.k = s.rrow = s.wrow = 0;
  }
  for (TxSimtStackModel& st : stacks_) {
    st.Reset();
  }
  draw_.Reset();
  draw_arb_.Reset();
  walk_arb_.Reset();
  load_arb_.Reset();
  ds_busy_ = ds_issuing_ = false;
  ds_slot_ = ds_phase_ = ds_lane_ = ds_k_ = 0;
  busy_ = false;
  wslot_ = 0;
  lanes_ = filled_ = decided_ = committed_ = 0;
  for (auto* v : {&arep_, &aok_, &touched_, &written_, &vrep_, &vok_, &dc_}) {
    std::fill(v->begin(), v->end(), 0);
  }
  ae_rem_ = 0;
  ae_state_ = kAeCid;
  ae_p_ = 0;
  fe_rem_ = 0;
  fe_state_ = kFeWait;
  fe_row_ = fe_p_ = fe_timer_ = 0;
  fe_retry_ = 0;
  oe_lane_ = 0;
  oe_rem_ = 0;
  oe_pass_ = false;
  req_valid_ = false;
  req_dst_ = req_data_ = 0;
  logw_valid_ = logw_write_ = false;
  logd_valid_ = logd_commit_ = false;
  ev_commit_ = ev_abort_ = ev_alloc_fail_ = false;
  err_ = false;
}

uint32_t SysCoreModel::Tid(int s, int l) const {
  return static_cast<uint32_t>(slots_[s].base + static_cast<uint64_t>(l)) & kTidMask;
}

uint64_t SysCoreModel::Route(int s, int l) const {
  return (static_cast<uint64_t>(s) << lane_w_) | static_cast<uint64_t>(l);
}

SysStep SysCoreModel::StepOf(const SysCoreIn& in, uint64_t pc) const {
  switch (Wl(in)) {
    case SysWl::kAtm:
      if (pc >= 1 && pc <= 3) {
        return SysStep::kLoad;
      }
      if (pc == 4 || pc == 5) {
        return SysStep::kStore;
      }
      return pc == 6 ? SysStep::kCommit : SysStep::kNone;
    case SysWl::kHt:
      if (pc == 1 || pc == 2) {
        return SysStep::kLoad;
      }
      if (pc >= 3 && pc <= 6) {
        return SysStep::kStore;
      }
      return pc == 7 ? SysStep::kCommit : SysStep::kNone;
    case SysWl::kEb: {
      // A step whose count is zero is empty.
      const uint64_t count = pc == 1 ? in.cfg_reads : pc <= 3 ? in.cfg_writes : in.cfg_cold;
      switch (pc) {
        case 1:
        case 2:
        case 4:
          return count == 0 ? SysStep::kEmpty : SysStep::kLoad;
        case 3:
        case 5:
          return count == 0 ? SysStep::kEmpty : SysStep::kStore;
        case 6:
          return SysStep::kCommit;
        default:
          return SysStep::kNone;
      }
    }
  }
  return SysStep::kNone;
}

void SysCoreModel::NextPc(const SysCoreIn& in, uint64_t pc, int k, uint64_t* npc, int* nk) const {
  *npc = pc + 1;
  *nk = 0;
  if (Wl(in) != SysWl::kEb) {
    return;
  }
  // EB-P's loops: the counts are compared with k + 1, so an empty step moves on at once.
  const uint64_t k1 = static_cast<uint64_t>(k) + 1;
  switch (pc) {
    case 1:
      if (k1 < in.cfg_reads) {
        *npc = 1;
        *nk = k + 1;
      }
      break;
    case 2:
    case 4:
      *nk = k;
      break;
    case 3:
      if (k1 < in.cfg_writes) {
        *npc = 2;
        *nk = k + 1;
      }
      break;
    case 5:
      if (k1 < in.cfg_cold) {
        *npc = 4;
        *nk = k + 1;
      }
      break;
    default:
      break;
  }
  *nk &= 31;  // the 5-bit loop counter
}

uint64_t SysCoreModel::LoadAddr(const SysCoreIn& in, int s, int l, uint64_t pc) const {
  const Slot& x = slots_[s];
  const uint32_t a = Objects(in), m = a - 1;
  const uint32_t k = static_cast<uint32_t>(x.k);
  uint32_t addr = 0;
  switch (Wl(in)) {
    case SysWl::kAtm:
      addr = pc == 1 ? a + x.c[2][l] : pc == 2 ? x.c[0][l] : x.c[1][l];
      break;
    case SysWl::kHt:
      addr = pc == 1 ? x.c[1][l] : a + x.c[1][l];
      break;
    case SysWl::kEb:
      if (pc == 1) {
        addr = (x.c[0][l] + k) & m;
      } else if (pc == 2) {
        addr = (x.c[1][l] + k) & m;
      } else {
        addr = a + k * static_cast<uint32_t>(in.cfg_threads) + Tid(s, l);
      }
      break;
  }
  return addr & LowMask(p_.addr_w);
}

void SysCoreModel::StoreWord(const SysCoreIn& in, int s, int l, uint64_t pc, uint64_t* addr,
                             uint32_t* val) const {
  const Slot& x = slots_[s];
  const uint32_t a = Objects(in), m = a - 1;
  const uint32_t k = static_cast<uint32_t>(x.k);
  uint32_t ad = 0, v = 0;
  switch (Wl(in)) {
    case SysWl::kAtm:
      if (pc == 4) {
        ad = x.c[0][l];
        v = x.r[1][l] - x.r[0][l];
      } else {
        ad = x.c[1][l];
        v = x.r[2][l] + x.r[0][l];
      }
      break;
    case SysWl::kHt: {
      const uint32_t node = 2 * a + 2 * Tid(s, l);
      switch (pc) {
        case 3:
          ad = node;
          v = x.c[0][l];
          break;
        case 4:
          ad = node + 1;
          v = x.r[0][l];
          break;
        case 5:
          ad = x.c[1][l];
          v = node;
          break;
        default:
          ad = a + x.c[1][l];
          v = x.r[1][l] + 1;
          break;
      }
      break;
    }
    case SysWl::kEb:
      ad =
          pc == 3 ? (x.c[1][l] + k) & m : a + k * static_cast<uint32_t>(in.cfg_threads) + Tid(s, l);
      v = x.r[0][l] + 1;
      break;
  }
  *addr = ad & LowMask(p_.addr_w);
  *val = v;
}

int SysCoreModel::Draws(const SysCoreIn& in) const {
  // HT-P's second phase draws once per lane too.
  switch (Wl(in)) {
    case SysWl::kAtm:
      return 3;
    case SysWl::kEb:
      return 2;
    default:
      return 1;
  }
}

void SysCoreModel::DrawResult(const SysCoreIn& in, uint64_t tag, uint32_t v) {
  Slot& x = slots_[ds_slot_];
  const int l = static_cast<int>((tag >> 2) & LowMask(lane_w_));
  const int k = static_cast<int>(tag & 3);
  if (l >= p_.warp_size) {
    return;
  }
  const uint32_t m = Objects(in) - 1;
  switch (Wl(in)) {
    case SysWl::kAtm:
      if (k == 0) {
        x.c[0][l] = v & m;
      } else if (k == 1) {
        const uint32_t o = v & m;
        x.c[1][l] = x.c[0][l] ^ (o == 0 ? 1 : o);
      } else {
        x.c[2][l] = v & 15;
      }
      break;
    case SysWl::kHt:
      if (ds_phase_ == 0) {
        x.c[0][l] = v;
      } else {
        x.c[1][l] = v & m;
      }
      break;
    case SysWl::kEb:
      x.c[k == 0 ? 0 : 1][l] = v & m;
      break;
  }
}

SysCoreModel::Comb SysCoreModel::Decide(const SysCoreIn& in) const {
  Comb c;
  const int nw = p_.num_warps, ws = p_.warp_size;
  const SysWl wl = Wl(in);
  c.top.resize(nw);
  c.stk_in.resize(nw);
  uint64_t setup_wait = 0, commit_wait = 0, loading = 0;
  for (int s = 0; s < nw; ++s) {
    const Slot& x = slots_[s];
    c.top[s] = stacks_[s].Eval(TxSimtStackIn{});
    c.running = c.running || (x.state != kSIdle && x.state != kSDone);
    setup_wait |= x.state == kSSetupWait ? Bit(s) : 0;
    commit_wait |= x.state == kSCommitWait ? Bit(s) : 0;
    loading |= x.state == kSLoad && x.rem != 0 ? Bit(s) : 0;
  }
  c.start_taken = in.start != 0 && !c.running;

  // The draw sequencer. "ack = its grant" is read as: the arbiter's grant is taken (its pointer
  // moves) only in a cycle where it grants, which is when the sequencer is idle (!ds_busy as
  // registered); the walker's arbiter likewise with !busy.
  c.draw_out = draw_.Eval(SysDrawIn{});
  c.draw_arb_in.req = setup_wait;
  c.draw_arb_in.ack = !ds_busy_;
  c.draw_arb = draw_arb_.Eval(c.draw_arb_in);
  c.draw_grant = !ds_busy_ && c.draw_arb.gnt_valid != 0;
  if (ds_busy_ && ds_issuing_) {
    const int kk = Draws(in);
    c.issue_last = ds_lane_ == ws - 1 && ds_k_ == kk - 1;
    const uint32_t tid = Tid(ds_slot_, ds_lane_);
    const auto stream = [tid](uint32_t st) { return uint64_t{(st << 24) | tid}; };
    // Operand b is the seed hash for every draw but HT-P's second phase (the page's table names
    // it for k 0 only; the workloads' Draw(h, stream, tid) uses it for each). The tag is
    // {last, lane, k}: last at the top, k in the low two bits.
    SysDrawIn& d = c.draw_in;
    d.in_valid = 1;
    d.b = in.cfg_seed_hash & 0xFFFFFFFFu;
    switch (wl) {
      case SysWl::kAtm:
        d.a = stream(ds_k_ == 0 ? proto::kAtmFrom : ds_k_ == 1 ? proto::kAtmTo : proto::kAtmAmount);
        break;
      case SysWl::kHt:
        if (ds_phase_ == 0) {
          d.a = stream(proto::kHtKey);
        } else {
          d.a = slots_[ds_slot_].c[0][ds_lane_];
          d.b = proto::kHtBucketSalt;
        }
        break;
      case SysWl::kEb:
        d.a = stream(ds_k_ == 0 ? proto::kEbRead : proto::kEbWrite);
        break;
    }
    d.in_tag = (uint64_t{c.issue_last} << (lane_w_ + 2)) | (static_cast<uint64_t>(ds_lane_) << 2) |
               static_cast<uint64_t>(ds_k_);
  }

  // The walker's message: its outcome engine, then its fill engine, then its alloc engine.
  if (busy_) {
    SysPartReq& w = c.wmsg;
    w.kind = SysReq::kCu;
    if (oe_rem_ != 0) {
      c.weng = kEngOutcome;
      c.wdst = Lowest(oe_rem_);
      w.type = static_cast<uint64_t>(oe_pass_ ? CuMsg::kPass : CuMsg::kFail);
      w.cid = cid_[oe_lane_];
      w.route = Route(wslot_, oe_lane_);
    } else if (fe_rem_ != 0) {
      const int lf = Lowest(fe_rem_);
      const Slot& x = slots_[wslot_];
      w.cid = cid_[lf];
      w.route = Route(wslot_, lf);
      switch (fe_state_) {
        case kFeRead:
        case kFeWrite: {
          const bool rd = fe_state_ == kFeRead;
          const size_t i = static_cast<size_t>(fe_row_) * ws + lf;
          c.weng = kEngFill;
          w.type = static_cast<uint64_t>(rd ? CuMsg::kReadSet : CuMsg::kWriteSet);
          w.addr = rd ? x.rl_addr[i] : x.wl_addr[i];
          w.data = rd ? x.rl_val[i] : x.wl_val[i];
          c.wdst = SysPartOf(mp_, w.addr);
          break;
        }
        case kFeFill:
          c.weng = kEngFill;
          w.type = static_cast<uint64_t>(((touched_[lf] >> fe_p_) & 1U) != 0 ? CuMsg::kDoneFill
                                                                             : CuMsg::kSkip);
          c.wdst = fe_p_;
          break;
        case kFeRetry:
          if (fe_retry_ != 0) {
            c.weng = kEngFill;
            w.type = static_cast<uint64_t>(CuMsg::kAlloc);
            c.wdst = Lowest(fe_retry_);
          }
          break;
        default:
          break;
      }
    }
    if (c.weng == kEngNone && ae_rem_ != 0 && ae_state_ == kAeAlloc) {
      const int la = Lowest(ae_rem_);
      c.weng = kEngAlloc;
      c.wdst = ae_p_;
      w.type = static_cast<uint64_t>(CuMsg::kAlloc);
      w.cid = cid_[la];
      w.route = Route(wslot_, la);
    }
  }

  // The request port: the output register loads when it is empty or its message is taken; with
  // no candidate it loads an empty slot (req_valid 0).
  c.load_en = !req_valid_ || in.req_ready != 0;
  c.wsent = c.load_en && c.weng != kEngNone;
  c.load_arb_in.req = loading;
  c.load_arb_in.ack = c.load_en && c.weng == kEngNone;
  c.load_arb = load_arb_.Eval(c.load_arb_in);
  if (c.load_en && c.weng == kEngNone && c.load_arb.gnt_valid != 0) {
    c.lsent = true;
    c.ls = static_cast<int>(c.load_arb.gnt_idx);
    c.ll = Lowest(slots_[c.ls].rem);
    c.laddr = LoadAddr(in, c.ls, c.ll, c.top[c.ls].top_pc);
  }

  // The reply port: every reply is taken; one that fits nothing sets err and is dropped.
  if (in.rep_valid != 0) {
    c.rep = UnpackSysPartRep(mp_, in.rep_data);
    c.rs = static_cast<int>(c.rep.route >> lane_w_);
    c.rl = static_cast<int>(c.rep.route & LowMask(lane_w_));
    c.rp = static_cast<int>(in.rep_src);
    const bool in_range = c.rs < nw && c.rl < ws;
    const bool walker = in_range && busy_ && c.rs == wslot_ && ((lanes_ >> c.rl) & 1U) != 0;
    switch (c.rep.kind) {
      case SysRep::kLoad:
        // The page lists the types of Alloc and Cu replies only: a load reply's type field is
        // not looked at.
        c.rep_ok = in_range && slots_[c.rs].state == kSLoad && ((slots_[c.rs].pend >> c.rl) & 1U);
        break;
      case SysRep::kAlloc:
        c.rep_ok = walker && (c.rep.type == static_cast<uint64_t>(CuRep::kAllocPass) ||
                              c.rep.type == static_cast<uint64_t>(CuRep::kAllocFail));
        break;
      case SysRep::kCu:
        c.rep_ok = walker && (c.rep.type == static_cast<uint64_t>(CuRep::kPass) ||
                              c.rep.type == static_cast<uint64_t>(CuRep::kFail) ||
                              c.rep.type == static_cast<uint64_t>(CuRep::kDoneCommit));
        break;
      default:
        break;
    }
    c.rep_bad = !c.rep_ok;
  }

  // The walker: start, the outcome engine's decision, the end.
  c.walk_arb_in.req = commit_wait;
  c.walk_arb_in.ack = !busy_;
  c.walk_arb = walk_arb_.Eval(c.walk_arb_in);
  c.walk_start = !busy_ && c.walk_arb.gnt_valid != 0;
  if (busy_ && oe_rem_ == 0) {
    for (int l = 0; l < ws; ++l) {
      if (((filled_ & ~decided_) >> l & 1U) != 0 && (vrep_[l] & touched_[l]) == touched_[l]) {
        c.decide = true;
        c.dec_lane = l;
        c.dec_commit = (vok_[l] & touched_[l]) == touched_[l];
        break;
      }
    }
  }
  if (busy_ && ae_rem_ == 0 && fe_rem_ == 0 && oe_rem_ == 0 && (lanes_ & ~decided_) == 0) {
    bool done = true;
    for (int l = 0; l < ws; ++l) {
      if (((lanes_ & committed_) >> l & 1U) != 0 && (dc_[l] & written_[l]) != written_[l]) {
        done = false;
      }
    }
    c.end = done;
  }

  // The SIMT stacks' commands.
  for (int s = 0; s < nw; ++s) {
    const Slot& x = slots_[s];
    const uint64_t pc = c.top[s].top_pc;
    uint64_t npc = 0;
    int nk = 0;
    NextPc(in, pc, x.k, &npc, &nk);
    const TxSimtStackIn next = StackCmd(SimtOp::kNext, 0, npc, 0);
    switch (x.state) {
      case kSInit:
        c.stk_in[s] = StackCmd(SimtOp::kInit, x.amask, 0, 0);
        break;
      case kSTxBegin:
        c.stk_in[s] = StackCmd(SimtOp::kTxBegin, 0, 1, ExitPc(wl));
        break;
      case kSExec:
        if (StepOf(in, pc) == SysStep::kEmpty) {
          c.stk_in[s] = next;
        }
        break;
      case kSLoad:
        if (x.rem == 0 && x.pend == 0) {
          c.stk_in[s] = next;
        }
        break;
      case kSStore:
        if (x.rem == 0) {
          c.stk_in[s] = next;
        }
        break;
      case kSCommitWait:
        if (c.end && wslot_ == s) {
          c.stk_in[s] = StackCmd(SimtOp::kCommit, lanes_ & ~committed_, 0, 0);
        }
        break;
      default:
        break;
    }
  }

  c.out = Outputs();
  return c;
}

SysCoreOut SysCoreModel::Outputs() const {
  SysCoreOut o;
  for (const Slot& x : slots_) {
    o.running |= x.state != kSIdle && x.state != kSDone ? 1 : 0;
  }
  o.cid_req = busy_ && ae_rem_ != 0 && ae_state_ == kAeCid;
  o.req_valid = req_valid_;
  o.req_dst = req_dst_;
  o.req_data = req_data_;
  o.logw_valid = logw_valid_;
  o.logw_cid = logw_cid_;
  o.logw_thread = logw_thread_;
  o.logw_write = logw_write_;
  o.logw_addr = logw_addr_;
  o.logw_data = logw_data_;
  o.logd_valid = logd_valid_;
  o.logd_cid = logd_cid_;
  o.logd_thread = logd_thread_;
  o.logd_commit = logd_commit_;
  o.ev_commit = ev_commit_;
  o.ev_abort = ev_abort_;
  o.ev_alloc_fail = ev_alloc_fail_;
  o.err = err_;
  return o;
}

SysCoreOut SysCoreModel::Eval(const SysCoreIn& in) const {
  (void)in;  // every output is a register (or a function of registers only)
  return Outputs();
}

void SysCoreModel::Tick(const SysCoreIn& in) {
  const Comb c = Decide(in);
  const int nw = p_.num_warps, ws = p_.warp_size, np = p_.num_parts;
  const SysWl wl = Wl(in);
  const uint64_t threads = in.cfg_threads & kTidMask;
  const uint64_t stride = static_cast<uint64_t>(p_.num_cores) * nw * ws;
  bool err = c.rep_bad;

  // ---- The slots.
  for (int s = 0; s < nw; ++s) {
    Slot& x = slots_[s];
    const uint64_t pc = c.top[s].top_pc;
    uint64_t npc = 0;
    int nk = 0;
    NextPc(in, pc, x.k, &npc, &nk);
    switch (x.state) {
      case kSIdle:
      case kSDone:
        if (c.start_taken) {
          // base is loaded with an unknown workload too (it is never used then).
          x.base = ((in.core_idx * nw + s) * ws) & kBaseMask;
          x.state = kSBatch;
          if (in.cfg_wl == kNoWorkload) {
            err = true;
            x.state = kSDone;
          }
        }
        break;
      case kSBatch:
        if (x.base >= threads) {
          x.state = kSDone;
        } else {
          x.amask = 0;
          for (int l = 0; l < ws; ++l) {
            x.amask |= x.base + l < threads ? Bit(l) : 0;
          }
          x.state = kSSetupWait;
        }
        break;
      case kSSetupWait:
        if (c.draw_grant && static_cast<int>(c.draw_arb.gnt_idx) == s) {
          x.state = kSSetup;
        }
        break;
      case kSSetup:
        break;  // to SInit with the sequencer's last result, below
      case kSInit:
        x.state = kSTxBegin;
        break;
      case kSTxBegin:
        x.k = x.rrow = x.wrow = 0;
        x.state = kSExec;
        break;
      case kSExec:
        switch (StepOf(in, pc)) {
          case SysStep::kCommit:
            x.state = kSCommitWait;
            break;
          case SysStep::kEmpty:
            x.k = nk;
            break;
          case SysStep::kLoad:
            // A load step with the read log full: err; the step runs, its log writes are
            // dropped and the row count stays (decided at the step's decode).
            err = err || x.rrow >= p_.max_reads;
            x.rem = c.top[s].top_mask;
            x.state = kSLoad;
            break;
          case SysStep::kStore:
            err = err || x.wrow >= p_.max_writes;
            x.rem = c.top[s].top_mask;
            x.state = kSStore;
            break;
          default:
            break;  // not a pc of the workload (cannot happen in a run): the slot waits
        }
        break;
      case kSLoad:
        // rem and pend as registered: the Next cycle is the one after the last reply's.
        if (x.rem == 0 && x.pend == 0) {
          x.k = nk;
          x.rrow += x.rrow < p_.max_reads ? 1 : 0;
          x.state = kSExec;
        } else if (c.lsent && c.ls == s) {
          x.rem &= ~Bit(c.ll);
          x.pend |= Bit(c.ll);
          if (x.rrow < p_.max_reads) {
            x.rl_addr[static_cast<size_t>(x.rrow) * ws + c.ll] = c.laddr;
          }
        }
        break;
      case kSStore:
        // One lane per cycle, lowest first (docs/proto.md's "every active lane in one cycle"
        // is not this page's timing: 1 + n + 1 cycles).
        if (x.rem == 0) {
          x.k = nk;
          x.wrow += x.wrow < p_.max_writes ? 1 : 0;
          x.state = kSExec;
        } else {
          const int l = Lowest(x.rem);
          uint64_t addr = 0;
          uint32_t val = 0;
          StoreWord(in, s, l, pc, &addr, &val);
          if (x.wrow < p_.max_writes) {
            x.wl_addr[static_cast<size_t>(x.wrow) * ws + l] = addr;
            x.wl_val[static_cast<size_t>(x.wrow) * ws + l] = val;
          }
          x.rem &= ~Bit(l);
        }
        break;
      case kSCommitWait:
        if (c.end && wslot_ == s) {
          x.state = kSAfter;
        }
        break;
      case kSAfter:
        // The stack's Commit either restarts or ends the transaction; with neither (a stack
        // error) the slot would wait here.
        if (c.top[s].restarted != 0) {
          x.k = x.rrow = x.wrow = 0;
          x.state = kSExec;
        } else if (c.top[s].tx_done != 0) {
          x.base = (x.base + stride) & kBaseMask;
          x.state = kSBatch;
        }
        break;
    }
  }
  // A load's reply: the step's register, the read log's row, pend.
  if (c.rep_ok && c.rep.kind == SysRep::kLoad) {
    Slot& x = slots_[c.rs];
    const uint64_t pc = c.top[c.rs].top_pc;
    const uint32_t v = static_cast<uint32_t>(c.rep.data);
    int reg = -1;
    switch (wl) {
      case SysWl::kAtm:
        reg = pc >= 1 && pc <= 3 ? static_cast<int>(pc) - 1 : -1;
        break;
      case SysWl::kHt:
        reg = pc == 1 || pc == 2 ? static_cast<int>(pc) - 1 : -1;
        break;
      case SysWl::kEb:
        reg = pc == 2 || pc == 4 ? 0 : -1;
        break;
    }
    if (reg >= 0) {
      x.r[reg][c.rl] = v;
    }
    if (x.rrow < p_.max_reads) {
      x.rl_val[static_cast<size_t>(x.rrow) * ws + c.rl] = v;
    }
    x.pend &= ~Bit(c.rl);
  }

  // ---- The draw sequencer.
  if (c.draw_out.out_valid != 0) {
    DrawResult(in, c.draw_out.out_tag, static_cast<uint32_t>(c.draw_out.out_value));
  }
  if (c.draw_grant) {
    ds_busy_ = ds_issuing_ = true;
    ds_slot_ = static_cast<int>(c.draw_arb.gnt_idx);
    ds_phase_ = ds_lane_ = ds_k_ = 0;
  } else if (ds_busy_) {
    if (ds_issuing_) {
      if (c.issue_last) {
        ds_issuing_ = false;
      } else if (ds_k_ + 1 < Draws(in)) {
        ++ds_k_;
      } else {
        ds_k_ = 0;
        ++ds_lane_;
      }
    }
    const bool last_out = c.draw_out.out_valid != 0 && ((c.draw_out.out_tag >> (lane_w_ + 2)) & 1U);
    if (last_out) {
      if (wl == SysWl::kHt && ds_phase_ == 0) {
        ds_phase_ = 1;
        ds_issuing_ = true;
        ds_lane_ = ds_k_ = 0;
      } else {
        ds_busy_ = false;
        if (slots_[ds_slot_].state == kSSetup) {
          slots_[ds_slot_].state = kSInit;
        }
      }
    }
  }

  // ---- The log walker.
  bool logw = false;
  int logw_lane = 0;
  if (c.walk_start) {
    // The walker takes the slots by its round-robin arbiter (docs/proto.md says FIFO order of
    // the slots reaching their commit step; this page's arbiter is what is modelled). The
    // per-lane cids are registers, not flags: they are not cleared.
    busy_ = true;
    wslot_ = static_cast<int>(c.walk_arb.gnt_idx);
    lanes_ = ae_rem_ = fe_rem_ = c.top[wslot_].top_mask & lanes_all_;
    filled_ = decided_ = committed_ = 0;
    for (auto* v : {&arep_, &aok_, &touched_, &written_, &vrep_, &vok_, &dc_}) {
      std::fill(v->begin(), v->end(), 0);
    }
    ae_state_ = kAeCid;
    fe_state_ = kFeWait;
    oe_rem_ = 0;
  } else if (busy_) {
    const Slot& x = slots_[wslot_];
    // The alloc engine.
    if (ae_rem_ != 0) {
      const int la = Lowest(ae_rem_);
      if (ae_state_ == kAeCid) {
        if (in.cid_gnt != 0) {
          cid_[la] = in.cid & LowMask(p_.cid_w);
          ae_p_ = 0;
          ae_state_ = kAeAlloc;
        }
      } else if (c.wsent && c.weng == kEngAlloc) {
        if (ae_p_ == np - 1) {
          ae_rem_ &= ~Bit(la);
          ae_state_ = kAeCid;
        } else {
          ++ae_p_;
        }
      }
    }
    // The fill engine.
    if (fe_rem_ != 0) {
      const int lf = Lowest(fe_rem_);
      const bool sent = c.wsent && c.weng == kEngFill;
      switch (fe_state_) {
        case kFeWait:
          if (arep_[lf] == parts_all_) {
            if (aok_[lf] == parts_all_) {
              fe_row_ = 0;
              fe_p_ = 0;
              fe_state_ = x.rrow != 0 ? kFeRead : x.wrow != 0 ? kFeWrite : kFeFill;
            } else {
              fe_timer_ = p_.alloc_retry - 1;
              fe_state_ = kFeRetryWait;
            }
          }
          break;
        case kFeRead:
        case kFeWrite:
          if (sent) {
            const bool rd = fe_state_ == kFeRead;
            touched_[lf] |= Bit(c.wdst);
            if (!rd) {
              written_[lf] |= Bit(c.wdst);
            }
            logw = true;
            logw_lane = lf;
            if (fe_row_ + 1 < (rd ? x.rrow : x.wrow)) {
              ++fe_row_;
            } else if (rd && x.wrow != 0) {
              fe_row_ = 0;
              fe_state_ = kFeWrite;
            } else {
              fe_p_ = 0;
              fe_state_ = kFeFill;
            }
          }
          break;
        case kFeFill:
          if (sent) {
            if (fe_p_ == np - 1) {
              filled_ |= Bit(lf);
              fe_rem_ &= ~Bit(lf);
              fe_state_ = kFeWait;
            } else {
              ++fe_p_;
            }
          }
          break;
        case kFeRetryWait:
          // Entered with AllocRetry - 1 and left in the cycle it reads 0: AllocRetry cycles.
          if (fe_timer_ == 0) {
            fe_retry_ = ~aok_[lf] & parts_all_;
            fe_state_ = kFeRetry;
          } else {
            --fe_timer_;
          }
          break;
        case kFeRetry:
          // Back to Wait in the cycle after the last retried Alloc was sent (fe_retry as
          // registered).
          if (fe_retry_ == 0) {
            fe_state_ = kFeWait;
          } else if (sent) {
            fe_retry_ &= ~Bit(c.wdst);
            arep_[lf] &= ~Bit(c.wdst);
          }
          break;
      }
    }
    // The outcome engine.
    if (oe_rem_ != 0) {
      if (c.wsent && c.weng == kEngOutcome) {
        oe_rem_ &= ~Bit(c.wdst);
      }
    } else if (c.decide) {
      const int l = c.dec_lane;
      decided_ |= Bit(l);
      committed_ = c.dec_commit ? committed_ | Bit(l) : committed_ & ~Bit(l);
      oe_lane_ = l;
      oe_pass_ = c.dec_commit;
      oe_rem_ = vok_[l] & touched_[l];
    }
    // The replies of the commit units. A source at or beyond NumParts (NumParts 1 has a 1-bit
    // rep_src_i) names no partition: its flag is not written.
    const uint64_t pb = Bit(c.rp & 63) & parts_all_;
    if (c.rep_ok && c.rep.kind == SysRep::kAlloc) {
      arep_[c.rl] |= pb;
      aok_[c.rl] = c.rep.type == static_cast<uint64_t>(CuRep::kAllocPass) ? aok_[c.rl] | pb
                                                                          : aok_[c.rl] & ~pb;
    } else if (c.rep_ok && c.rep.kind == SysRep::kCu) {
      if (c.rep.type == static_cast<uint64_t>(CuRep::kDoneCommit)) {
        dc_[c.rl] |= pb;
      } else {
        vrep_[c.rl] |= pb;
        vok_[c.rl] =
            c.rep.type == static_cast<uint64_t>(CuRep::kPass) ? vok_[c.rl] | pb : vok_[c.rl] & ~pb;
      }
    }
    if (c.end) {
      busy_ = false;
    }
  }

  // ---- The request port's register, the log streams, the events, the error.
  if (c.load_en) {
    req_valid_ = c.wsent || c.lsent;
    if (c.wsent) {
      req_dst_ = static_cast<uint64_t>(c.wdst);
      req_data_ = PackSysPartReq(mp_, c.wmsg);
    } else if (c.lsent) {
      SysPartReq r;
      r.kind = SysReq::kLoad;
      r.route = Route(c.ls, c.ll);
      r.addr = c.laddr;
      req_dst_ = static_cast<uint64_t>(SysPartOf(mp_, c.laddr));
      req_data_ = PackSysPartReq(mp_, r);
    }
  }
  logw_valid_ = logw;
  if (logw) {
    logw_cid_ = c.wmsg.cid;
    logw_thread_ = Tid(wslot_, logw_lane);
    logw_write_ = c.wmsg.type == static_cast<uint64_t>(CuMsg::kWriteSet);
    logw_addr_ = c.wmsg.addr;
    logw_data_ = c.wmsg.data;
  }
  logd_valid_ = c.decide;
  if (c.decide) {
    logd_cid_ = cid_[c.dec_lane];
    logd_thread_ = Tid(wslot_, c.dec_lane);
    logd_commit_ = c.dec_commit;
  }
  ev_commit_ = c.decide && c.dec_commit;
  ev_abort_ = c.decide && !c.dec_commit;
  ev_alloc_fail_ = c.rep_ok && c.rep.kind == SysRep::kAlloc &&
                   c.rep.type == static_cast<uint64_t>(CuRep::kAllocFail);
  err_ = err_ || err;

  // ---- The blocks.
  for (int s = 0; s < nw; ++s) {
    stacks_[s].Tick(c.stk_in[s]);
  }
  draw_.Tick(c.draw_in);
  draw_arb_.Tick(c.draw_arb_in);
  walk_arb_.Tick(c.walk_arb_in);
  load_arb_.Tick(c.load_arb_in);
}

}  // namespace htm::golden
