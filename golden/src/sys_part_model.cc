// SPDX-License-Identifier: Apache-2.0
#include "htm/golden/sys_part_model.h"

#include <bit>
#include <initializer_list>
#include <stdexcept>
#include <utility>

namespace htm::golden {

namespace {

int PartBits(const SysPartParams& p) {
  return std::countr_zero(static_cast<unsigned>(p.num_parts));
}

int SrcW(const SysPartParams& p) {
  return p.core_w + p.route_w;
}

// A message's fields, most significant first: {value, width}.
uint64_t PackFields(std::initializer_list<std::pair<uint64_t, int>> fields) {
  uint64_t v = 0;
  for (const auto& [x, w] : fields) {
    v = (w >= 64 ? 0 : v << w) | (x & LowMask(w));
  }
  return v;
}

// Takes a message's fields from its least significant bits up.
struct FieldReader {
  uint64_t v;
  uint64_t Take(int w) {
    const uint64_t x = v & LowMask(w);
    v = w >= 64 ? 0 : v >> w;
    return x;
  }
};

constexpr uint64_t kReadSet = static_cast<uint64_t>(CuMsg::kReadSet);
constexpr uint64_t kWriteSet = static_cast<uint64_t>(CuMsg::kWriteSet);
constexpr uint64_t kAlloc = static_cast<uint64_t>(CuMsg::kAlloc);

}  // namespace

uint64_t PackSysPartReq(const SysPartParams& p, const SysPartReq& r) {
  return PackFields({{static_cast<uint64_t>(r.kind), 1},
                     {r.type, 3},
                     {r.cid, p.cid_w},
                     {r.route, p.route_w},
                     {r.addr, p.addr_w},
                     {r.data, p.data_w}});
}

SysPartReq UnpackSysPartReq(const SysPartParams& p, uint64_t v) {
  FieldReader f{v};
  SysPartReq r;
  r.data = f.Take(p.data_w);
  r.addr = f.Take(p.addr_w);
  r.route = f.Take(p.route_w);
  r.cid = f.Take(p.cid_w);
  r.type = f.Take(3);
  r.kind = static_cast<SysReq>(f.Take(1));
  return r;
}

uint64_t PackSysPartRep(const SysPartParams& p, const SysPartRep& r) {
  return PackFields({{static_cast<uint64_t>(r.kind), 2},
                     {r.type, 3},
                     {r.cid, p.cid_w},
                     {r.route, p.route_w},
                     {r.data, p.data_w}});
}

SysPartRep UnpackSysPartRep(const SysPartParams& p, uint64_t v) {
  FieldReader f{v};
  SysPartRep r;
  r.data = f.Take(p.data_w);
  r.route = f.Take(p.route_w);
  r.cid = f.Take(p.cid_w);
  r.type = f.Take(3);
  r.kind = static_cast<SysRep>(f.Take(2));
  return r;
}

int SysPartOf(const SysPartParams& p, uint64_t addr) {
  return static_cast<int>((addr >> p.ilv_log2) & static_cast<uint64_t>(p.num_parts - 1));
}

uint64_t SysPartLocal(const SysPartParams& p, uint64_t addr) {
  const uint64_t hi = (addr >> (p.ilv_log2 + PartBits(p))) << p.ilv_log2;
  return hi | (addr & LowMask(p.ilv_log2));
}

uint64_t SysPartGlobal(const SysPartParams& p, int part, uint64_t local) {
  const uint64_t hi = (local >> p.ilv_log2) << (p.ilv_log2 + PartBits(p));
  return hi | (static_cast<uint64_t>(part) << p.ilv_log2) | (local & LowMask(p.ilv_log2));
}

uint64_t SysPartWords(const SysPartParams& p) {
  return uint64_t{1} << (p.addr_w - PartBits(p));
}

CommitUnitParams SysPartCuParams(const SysPartParams& p) {
  return CommitUnitParams{.addr_w = p.addr_w,
                          .data_w = p.data_w,
                          .cid_w = p.cid_w,
                          .src_w = SrcW(p),
                          .ring_size = p.ring_size,
                          .buf_words = p.buf_words,
                          .val_tags = p.val_tags,
                          .lwh_sets = p.lwh_sets,
                          .lwh_ways = p.lwh_ways,
                          .lwh_bf_hashes = p.lwh_bf_hashes,
                          .lwh_bf_slots = p.lwh_bf_slots,
                          .lwh_scrub_interval = p.lwh_scrub_interval,
                          .lwh_pipe = p.lwh_pipe};
}

std::string CheckSysPartParams(const SysPartParams& p) {
  if (!IsPow2(p.num_parts) || p.num_parts > 1024) {
    return "NumParts must be a power of two in 1..1024, got " + std::to_string(p.num_parts);
  }
  const int pb = PartBits(p);
  if (p.addr_w <= pb || p.addr_w - pb > 20) {
    return "AddrW must leave 1..20 bits of local word address (AddrW - log2(NumParts)), got " +
           std::to_string(p.addr_w);
  }
  if (p.ilv_log2 < 0 || p.ilv_log2 + pb > p.addr_w) {
    return "IlvLog2 must be in 0..AddrW - log2(NumParts), got " + std::to_string(p.ilv_log2);
  }
  if (p.data_w < 1 || p.data_w > 64) {
    return "DataW must be in 1..64, got " + std::to_string(p.data_w);
  }
  if (p.core_w < 1 || p.route_w < 1 || SrcW(p) > 32) {
    return "CoreW and RouteW must be >= 1 with CoreW + RouteW <= 32";
  }
  if (SysPartReqW(p.cid_w, p.route_w, p.addr_w, p.data_w) > kMaxPortBits) {
    return "a request ({kind, type, cid, route, addr, data}, " +
           std::to_string(SysPartReqW(p.cid_w, p.route_w, p.addr_w, p.data_w)) +
           " bits) must fit the harness's 64-bit ports";
  }
  if (p.core_w + p.route_w + p.cid_w + p.data_w > 64 || 3 + p.cid_w + SrcW(p) > 64) {
    return "a queued reply must fit 64 bits";
  }
  if (p.ring_size + SysPartModel::kCuQSlack > 4096) {
    return "RingSize + 4 must not exceed 4096 (the reply queue)";
  }
  if (std::string err = CheckCommitUnitParams(SysPartCuParams(p)); !err.empty()) {
    return "commit unit: " + err;
  }
  return "";
}

const SysPartParams& SysPartModel::Checked(const SysPartParams& p) {
  if (std::string err = CheckSysPartParams(p); !err.empty()) {
    throw std::invalid_argument("htm_sys_part: " + err);
  }
  return p;
}

SysPartModel::SysPartModel(const SysPartParams& p)
    : p_(Checked(p)),
      cu_(SysPartCuParams(p)),
      mem_(RamSpParams{.width = p.data_w, .depth = static_cast<int>(SysPartWords(p))}),
      mem_arb_(RrArbParams{.num_req = 4}),
      rep_arb_(RrArbParams{.num_req = 3}),
      lq_(FifoParams{.width = p.core_w + p.route_w + p.cid_w + p.data_w, .depth = kLoadQDepth}),
      aq_(FifoParams{.width = 1 + p.cid_w + SrcW(p), .depth = kAllocQDepth}),
      cq_(FifoParams{.width = 3 + p.cid_w + SrcW(p), .depth = p.ring_size + kCuQSlack}) {
  Reset();
}

void SysPartModel::Reset() {
  cu_.Reset();
  mem_.Reset();
  mem_arb_.Reset();
  rep_arb_.Reset();
  lq_.Reset();
  aq_.Reset();
  cq_.Reset();
  lq_known_.clear();
  s1_kind_ = s2_kind_ = kRdNone;
  cw_ack_ = false;
  rep_valid_ = false;
  bad_ = false;
}

bool SysPartModel::Mine(uint64_t addr, uint64_t part_idx) const {
  return p_.num_parts == 1 || static_cast<uint64_t>(SysPartOf(p_, addr)) == part_idx;
}

SysPartModel::Comb SysPartModel::Decide(const SysPartIn& in) const {
  Comb c;
  const SysPartReq& r = c.req = UnpackSysPartReq(p_, in.req_data);
  c.is_load = r.kind == SysReq::kLoad;
  const bool has_addr = c.is_load || r.type == kReadSet || r.type == kWriteSet;
  c.bad_addr = has_addr && !Mine(r.addr, in.part_idx);
  c.mt_ok = Mine(in.mt_addr, in.part_idx);
  c.lq_reserved =
      static_cast<int>(lq_.size()) + (s1_kind_ == kRdLoad ? 1 : 0) + (s2_kind_ == kRdLoad ? 1 : 0);

  // The commit unit, first with its memory ports not ready: its Alloc reply (a register) for
  // the gate, and its memory requests, which depend on the intake but not on the readiness.
  CommitUnitIn& ci = c.cu_in;
  ci.in_type = r.type;
  ci.in_cid = r.cid;
  ci.in_src = (in.req_src << p_.route_w) | r.route;
  ci.in_addr = r.addr;
  ci.in_data = r.data;
  ci.vr_rsp_valid = s2_kind_ == kRdVr;
  ci.vr_rsp_tag = s2_tag_;
  ci.vr_rsp_data = s2_data_;
  ci.cw_ack_valid = cw_ack_;
  const bool cu_msg = in.req_valid && !c.is_load && !c.bad_addr;
  ci.in_valid = cu_msg;
  CommitUnitOut first = cu_.Eval(ci);
  c.cu_gate = static_cast<int>(cq_.size()) < kCuQSlack &&
              (r.type != kAlloc ||
               static_cast<int>(aq_.size()) + static_cast<int>(first.arep_valid) < kAllocQDepth);
  c.cu_in_valid = cu_msg && c.cu_gate;
  if (c.cu_in_valid != cu_msg) {
    ci.in_valid = 0;
    first = cu_.Eval(ci);
  }

  // The memory port.
  c.ld_req = in.req_valid && c.is_load && !c.bad_addr && c.lq_reserved < kLoadQDepth;
  c.mt_req = in.mt_valid && c.mt_ok;
  c.mem_arb_in.req = (first.cw_req_valid << kReqCw) | (first.vr_req_valid << kReqVr) |
                     (uint64_t{c.ld_req} << kReqLoad) | (uint64_t{c.mt_req} << kReqMt);
  c.mem_arb_in.ack = 1;
  c.mem_arb = mem_arb_.Eval(c.mem_arb_in);
  const uint64_t gnt = c.mem_arb.gnt;
  ci.cw_req_ready = (gnt >> kReqCw) & 1U;
  ci.vr_req_ready = (gnt >> kReqVr) & 1U;
  c.cu_out = cu_.Eval(ci);
  const CommitUnitOut& co = c.cu_out;

  c.mem_in.en = c.mem_arb.gnt_valid;
  c.mem_in.we = ((gnt >> kReqCw) & 1U) || (((gnt >> kReqMt) & 1U) && in.mt_we);
  uint64_t addr = in.mt_addr;
  switch (c.mem_arb.gnt_idx) {
    case kReqCw:
      addr = co.cw_req_addr;
      break;
    case kReqVr:
      addr = co.vr_req_addr;
      break;
    case kReqLoad:
      addr = r.addr;
      break;
    default:
      break;
  }
  c.mem_in.addr = SysPartLocal(p_, addr);
  c.mem_in.wdata = ((gnt >> kReqCw) & 1U) ? co.cw_req_data : in.mt_wdata;
  if ((gnt >> kReqVr) & 1U) {
    c.s1_kind = kRdVr;
  } else if ((gnt >> kReqLoad) & 1U) {
    c.s1_kind = kRdLoad;
  } else if (((gnt >> kReqMt) & 1U) && !in.mt_we) {
    c.s1_kind = kRdMt;
  }

  // Reply queues and the output register.
  const int sw = SrcW(p_);
  c.lq_push = s2_kind_ == kRdLoad;
  c.lq_wdata = (s2_meta_ << p_.data_w) | s2_data_;
  c.aq_push = co.arep_valid != 0;
  c.aq_wdata = (co.arep_pass << (p_.cid_w + sw)) | (co.arep_cid << sw) | co.arep_src;
  c.cq_push = co.rep_valid != 0;
  c.cq_wdata = (co.rep_type << (p_.cid_w + sw)) | (co.rep_cid << sw) | co.rep_src;
  c.rep_arb_in.req = uint64_t{lq_.size() != 0} | (uint64_t{aq_.size() != 0} << 1) |
                     (uint64_t{cq_.size() != 0} << 2);
  c.rep_arb = rep_arb_.Eval(c.rep_arb_in);
  c.rep_load = c.rep_arb.gnt_valid && (!rep_valid_ || in.rep_ready);
  c.rep_arb_in.ack = c.rep_load;
  c.lq_pop = c.rep_load && c.rep_arb.gnt_idx == 0;
  c.aq_pop = c.rep_load && c.rep_arb.gnt_idx == 1;
  c.cq_pop = c.rep_load && c.rep_arb.gnt_idx == 2;
  SysPartRep rep;
  c.rep_known = true;
  if (c.rep_arb.gnt_valid) {
    const uint64_t route_mask = LowMask(p_.route_w);
    if (c.rep_arb.gnt_idx == 0) {
      const uint64_t v = lq_.Eval(FifoIn{}).out_data;
      rep.kind = SysRep::kLoad;
      rep.data = v & LowMask(p_.data_w);
      const uint64_t meta = v >> p_.data_w;
      rep.cid = meta & LowMask(p_.cid_w);
      rep.route = (meta >> p_.cid_w) & route_mask;
      c.rep_dst = meta >> (p_.cid_w + p_.route_w);
      c.rep_known = lq_known_.front();
    } else if (c.rep_arb.gnt_idx == 1) {
      const uint64_t v = aq_.Eval(FifoIn{}).out_data;
      const uint64_t src = v & LowMask(sw);
      rep.kind = SysRep::kAlloc;
      rep.type = static_cast<uint64_t>(((v >> (p_.cid_w + sw)) & 1U) != 0 ? CuRep::kAllocPass
                                                                          : CuRep::kAllocFail);
      rep.cid = (v >> sw) & LowMask(p_.cid_w);
      rep.route = src & route_mask;
      c.rep_dst = src >> p_.route_w;
    } else {
      const uint64_t v = cq_.Eval(FifoIn{}).out_data;
      const uint64_t src = v & LowMask(sw);
      rep.kind = SysRep::kCu;
      rep.type = (v >> (p_.cid_w + sw)) & 7U;
      rep.cid = (v >> sw) & LowMask(p_.cid_w);
      rep.route = src & route_mask;
      c.rep_dst = src >> p_.route_w;
    }
  }
  c.rep_data = PackSysPartRep(p_, rep);

  SysPartOut& o = c.out;
  o.req_ready =
      c.bad_addr || (c.is_load ? ((gnt >> kReqLoad) & 1U) != 0 : c.cu_gate && co.in_ready != 0);
  o.rep_valid = rep_valid_;
  o.rep_dst = rep_dst_;
  o.rep_data = rep_data_;
  o.rep_known = rep_known_;
  o.mt_ready = !c.mt_ok || ((gnt >> kReqMt) & 1U) != 0;
  o.mt_rvalid = s2_kind_ == kRdMt;
  o.mt_rdata = s2_data_;
  o.mt_known = s2_known_;
  o.ev_load = (gnt >> kReqLoad) & 1U;
  o.ev_cu_msg = c.cu_in_valid && co.in_ready != 0;
  o.ev_alloc_fail = co.arep_valid && !co.arep_pass;
  o.cu_busy = co.busy;
  o.rct_inc_valid = co.rct_inc_valid;
  o.rct_inc_addr = co.rct_inc_addr;
  o.rct_inc_write = co.rct_inc_write;
  o.rct_dec_valid = co.rct_dec_valid;
  o.rct_dec_addr = co.rct_dec_addr;
  o.rct_dec_write = co.rct_dec_write;
  o.busy = co.busy || s1_kind_ != kRdNone || s2_kind_ != kRdNone || cw_ack_ || co.arep_valid ||
           lq_.size() != 0 || aq_.size() != 0 || cq_.size() != 0 || rep_valid_;
  o.err = bad_ || co.err;
  return c;
}

SysPartOut SysPartModel::Eval(const SysPartIn& in) const {
  return Decide(in).out;
}

void SysPartModel::Tick(const SysPartIn& in) {
  const Comb c = Decide(in);
  if ((c.lq_push && static_cast<int>(lq_.size()) >= kLoadQDepth) ||
      (c.aq_push && static_cast<int>(aq_.size()) >= kAllocQDepth) ||
      (c.cq_push && static_cast<int>(cq_.size()) >= p_.ring_size + kCuQSlack)) {
    throw std::logic_error("htm_sys_part model: a reply reached a full queue");
  }

  // Coverage.
  const bool cu_msg = in.req_valid && !c.is_load && !c.bad_addr;
  const bool cq_room = static_cast<int>(cq_.size()) < kCuQSlack;
  cover_.cu_gated += cu_msg && !cq_room;
  cover_.alloc_gated += cu_msg && cq_room && !c.cu_gate;
  cover_.load_gated += in.req_valid && c.is_load && !c.bad_addr && c.lq_reserved >= kLoadQDepth;
  cover_.cu_queue_deep += static_cast<int>(cq_.size()) > kCuQSlack;
  if (std::popcount(c.mem_arb_in.req) >= 2) {
    ++cover_.mem_contention;
    cover_.mem_win_cw += c.mem_arb.gnt_idx == kReqCw;
    cover_.mem_win_vr += c.mem_arb.gnt_idx == kReqVr;
    cover_.mem_win_load += c.mem_arb.gnt_idx == kReqLoad;
    cover_.mem_win_mt += c.mem_arb.gnt_idx == kReqMt;
  }
  if (c.rep_load && std::popcount(c.rep_arb_in.req) >= 2) {
    cover_.rep_win_load += c.rep_arb.gnt_idx == 0;
    cover_.rep_win_alloc += c.rep_arb.gnt_idx == 1;
    cover_.rep_win_cu += c.rep_arb.gnt_idx == 2;
  }
  cover_.rep_stall += rep_valid_ && !in.rep_ready;
  const bool mt = (c.mem_arb.gnt >> kReqMt) & 1U;
  cover_.mt_write += mt && in.mt_we;
  cover_.mt_read += mt && !in.mt_we;
  cover_.bad_addr += (in.req_valid && c.bad_addr) || (in.mt_valid && !c.mt_ok);

  cu_.Tick(c.cu_in);
  mem_arb_.Tick(c.mem_arb_in);
  rep_arb_.Tick(c.rep_arb_in);
  // The queues take this cycle's pushes (from the old stage 2) and pops.
  lq_.Tick(FifoIn{.in_valid = c.lq_push, .in_data = c.lq_wdata, .out_ready = c.lq_pop});
  aq_.Tick(FifoIn{.in_valid = c.aq_push, .in_data = c.aq_wdata, .out_ready = c.aq_pop});
  cq_.Tick(FifoIn{.in_valid = c.cq_push, .in_data = c.cq_wdata, .out_ready = c.cq_pop});
  if (c.lq_pop) {
    lq_known_.pop_front();
  }
  if (c.lq_push) {
    lq_known_.push_back(s2_known_);
  }
  // The read pipeline: stage 2 takes the RAM's read register (stage 1's word), stage 1 the
  // access granted now.
  const RamSpOut ram = mem_.Eval(RamSpIn{});
  if (s1_kind_ != kRdNone) {
    s2_tag_ = s1_tag_;
    s2_meta_ = s1_meta_;
    s2_data_ = ram.rdata;
    s2_known_ = ram.rd_seen != 0;
  }
  s2_kind_ = s1_kind_;
  if (c.s1_kind != kRdNone) {
    s1_tag_ = c.cu_out.vr_req_tag;
    s1_meta_ = (in.req_src << (p_.route_w + p_.cid_w)) | (c.req.route << p_.cid_w) | c.req.cid;
  }
  s1_kind_ = c.s1_kind;
  mem_.Tick(c.mem_in);
  cw_ack_ = ((c.mem_arb.gnt >> kReqCw) & 1U) != 0;
  if (c.rep_load) {
    rep_valid_ = true;
    rep_dst_ = c.rep_dst;
    rep_data_ = c.rep_data;
    rep_known_ = c.rep_known;
  } else if (in.rep_ready) {
    rep_valid_ = false;
  }
  bad_ = bad_ || (in.req_valid && c.bad_addr) || (in.mt_valid && !c.mt_ok);
}

Coverage SysPartModel::coverage() const {
  Coverage c = cover_.View();
  const Coverage cu = cu_.coverage();
  for (CoverEvent e : cu) {
    e.name = "cu." + e.name;
    c.push_back(e);
  }
  return c;
}

}  // namespace htm::golden
