// SPDX-License-Identifier: Apache-2.0
#include "htm/golden/sys_fabric.h"

#include <bit>
#include <sstream>
#include <stdexcept>

#include "htm/workloads/gpu/proto.h"

namespace htm::golden {

SysPartParams SysFabricPartParams(const SysFabricParams& p) {
  SysPartParams pp = SysCoreMsgParams(p.core);
  pp.ring_size = p.ring_size;
  pp.buf_words = p.buf_words;
  pp.val_tags = p.val_tags;
  pp.lwh_sets = p.lwh_sets;
  pp.lwh_ways = p.lwh_ways;
  pp.lwh_bf_hashes = p.lwh_bf_hashes;
  pp.lwh_bf_slots = p.lwh_bf_slots;
  pp.lwh_scrub_interval = p.lwh_scrub_interval;
  pp.lwh_pipe = 1;  // the LWH result registered, as rtl/sys/htm_sys.sv instantiates the parts
  return pp;
}

namespace {
// Both crossbars with input FIFOs of two entries, as rtl/sys/htm_sys.sv instantiates them.
constexpr int kSysXbarInDepth = 2;
}  // namespace

XbarParams SysFabricReqXbarParams(const SysFabricParams& p) {
  const SysPartParams m = SysCoreMsgParams(p.core);
  return XbarParams{.num_src = p.core.num_cores,
                    .num_dst = p.core.num_parts,
                    .data_w = SysPartReqW(m.cid_w, m.route_w, m.addr_w, m.data_w),
                    .latency = p.xbar_latency,
                    .fifo_depth = p.xbar_fifo_depth,
                    .in_depth = kSysXbarInDepth};
}

XbarParams SysFabricRepXbarParams(const SysFabricParams& p) {
  const SysPartParams m = SysCoreMsgParams(p.core);
  return XbarParams{.num_src = p.core.num_parts,
                    .num_dst = p.core.num_cores,
                    .data_w = SysPartRepW(m.cid_w, m.route_w, m.data_w),
                    .latency = p.xbar_latency,
                    .fifo_depth = p.xbar_fifo_depth,
                    .in_depth = kSysXbarInDepth};
}

std::string CheckSysFabricParams(const SysFabricParams& p) {
  if (std::string e = CheckSysCoreParams(p.core); !e.empty()) {
    return "htm_sys_core: " + e;
  }
  if (std::string e = CheckSysPartParams(SysFabricPartParams(p)); !e.empty()) {
    return "htm_sys_part: " + e;
  }
  if (std::string e = CheckXbarParams(SysFabricReqXbarParams(p)); !e.empty()) {
    return "request htm_xbar: " + e;
  }
  if (std::string e = CheckXbarParams(SysFabricRepXbarParams(p)); !e.empty()) {
    return "reply htm_xbar: " + e;
  }
  return "";
}

int SysRunReads(const SysRunConfig& cfg) {
  switch (cfg.workload) {
    case SysWl::kAtm:
      return 3;
    case SysWl::kHt:
      return 2;
    case SysWl::kEb:
      return cfg.reads + cfg.writes + cfg.cold;
  }
  return 0;
}

int SysRunWrites(const SysRunConfig& cfg) {
  switch (cfg.workload) {
    case SysWl::kAtm:
      return 2;
    case SysWl::kHt:
      return 4;
    case SysWl::kEb:
      return cfg.writes + cfg.cold;
  }
  return 0;
}

const char* SysFabric::ToString(Phase p) {
  switch (p) {
    case Phase::kIdle:
      return "idle";
    case Phase::kInit:
      return "init";
    case Phase::kStart:
      return "start";
    case Phase::kRun:
      return "run";
    case Phase::kReadBack:
      return "read-back";
    case Phase::kDone:
      return "done";
  }
  return "?";
}

const SysFabricParams& SysBlocks::Checked(const SysFabricParams& p) {
  if (std::string e = CheckSysFabricParams(p); !e.empty()) {
    throw std::invalid_argument("sys fabric: " + e);
  }
  return p;
}

SysBlocks::SysBlocks(const SysFabricParams& p)
    : p_(Checked(p)),
      pp_(SysFabricPartParams(p)),
      xqp_(SysFabricReqXbarParams(p)),
      xrp_(SysFabricRepXbarParams(p)),
      xreq_(xqp_),
      xrep_(xrp_),
      cid_arb_(RrArbParams{.num_req = p.core.num_cores}) {
  for (int c = 0; c < p.core.num_cores; ++c) {
    cores_.emplace_back(p.core);
  }
  for (int q = 0; q < p.core.num_parts; ++q) {
    parts_.emplace_back(pp_);
  }
  Reset();
}

void SysBlocks::Reset() {
  for (SysCoreModel& c : cores_) {
    c.Reset();
  }
  for (SysPartModel& q : parts_) {
    q.Reset();
  }
  xreq_.Reset();
  xrep_.Reset();
  cid_arb_.Reset();
  cid_ = 0;
  req_cnt_ = rep_cnt_ = 0;
}

std::string SysBlocks::Describe() const {
  std::ostringstream os;
  for (int c = 0; c < num_cores(); ++c) {
    const SysCoreModel& m = cores_[c];
    os << "\n  core " << c << ": walker " << (m.walker_busy() ? "busy" : "idle") << " (slot "
       << m.walker_slot() << ", fill state " << static_cast<int>(m.fill_state()) << "), slots";
    for (int s = 0; s < p_.core.num_warps; ++s) {
      os << " " << SysCoreModel::ToString(m.slot_state(s)) << "@pc"
         << m.stack(s).Eval(TxSimtStackIn{}).top_pc;
    }
  }
  for (int q = 0; q < num_parts(); ++q) {
    os << "\n  partition " << q << ": busy " << parts_[q].Eval(SysPartIn{}).busy;
  }
  return os.str();
}

SysBlocksCycle SysBlocks::Eval(const SysBlocksIn& bin) const {
  const int nc = num_cores(), np = num_parts();
  SysBlocksCycle y;
  y.core_in.resize(nc);
  y.core_out.resize(nc);
  y.part_in.resize(np);
  y.part_out.resize(np);

  // The cores' outputs are registers.
  for (int c = 0; c < nc; ++c) {
    y.core_out[c] = cores_[c].Eval(SysCoreIn{});
  }
  // The commit-id allocator.
  for (int c = 0; c < nc; ++c) {
    y.cid_in.req |= y.core_out[c].cid_req << c;
  }
  y.cid_in.ack = 1;
  y.cid_out = cid_arb_.Eval(y.cid_in);
  // The request crossbar: its ready from the requests, its outputs from its FIFOs.
  for (int c = 0; c < nc; ++c) {
    if (y.core_out[c].req_valid != 0) {
      XbarSetReq(xqp_, y.req_in, c, y.core_out[c].req_dst, XbarData{y.core_out[c].req_data});
    }
  }
  y.req_out = xreq_.Eval(y.req_in);
  // The partitions: their replies and maintenance data are registers; their request ready
  // depends on the request crossbar's outputs, not on rep_ready_i.
  for (int q = 0; q < np; ++q) {
    SysPartIn& in = y.part_in[q];
    in.part_idx = static_cast<uint64_t>(q);
    in.req_valid = (y.req_out.out_valid >> q) & 1U;
    in.req_src = y.req_out.out_src[q];
    in.req_data = XbarOutData(xqp_, y.req_out, q)[0];
    if (static_cast<size_t>(q) < bin.mt.size()) {
      const SysMtIn& mt = bin.mt[q];
      in.mt_valid = mt.valid;
      in.mt_we = mt.we;
      in.mt_addr = mt.addr;
      in.mt_wdata = mt.wdata;
    }
    y.part_out[q] = parts_[q].Eval(in);
  }
  // The reply crossbar: always taken by the cores.
  for (int q = 0; q < np; ++q) {
    if (y.part_out[q].rep_valid != 0) {
      XbarSetReq(xrp_, y.rep_in, q, y.part_out[q].rep_dst, XbarData{y.part_out[q].rep_data});
    }
  }
  y.rep_in.out_ready = LowMask(nc);
  y.rep_out = xrep_.Eval(y.rep_in);
  for (int q = 0; q < np; ++q) {
    y.part_in[q].rep_ready = (y.rep_out.req_ready >> q) & 1U;
    y.req_in.out_ready |= y.part_out[q].req_ready << q;
  }
  // The cores' inputs.
  for (int c = 0; c < nc; ++c) {
    SysCoreIn& in = y.core_in[c];
    in.core_idx = static_cast<uint64_t>(c);
    in.start = bin.start;
    in.cfg_wl = bin.cfg_wl;
    in.cfg_threads = bin.cfg_threads;
    in.cfg_objlog2 = bin.cfg_objlog2;
    in.cfg_reads = bin.cfg_reads;
    in.cfg_writes = bin.cfg_writes;
    in.cfg_cold = bin.cfg_cold;
    in.cfg_seed_hash = bin.cfg_seed_hash;
    in.cid_gnt = (y.cid_out.gnt >> c) & 1U;
    in.cid = cid_;
    in.req_ready = (y.req_out.req_ready >> c) & 1U;
    in.rep_valid = (y.rep_out.out_valid >> c) & 1U;
    in.rep_src = y.rep_out.out_src[c];
    in.rep_data = XbarOutData(xrp_, y.rep_out, c)[0];
  }

  // Quiet and errors.
  y.quiet = req_cnt_ == 0 && rep_cnt_ == 0;
  y.err = y.req_out.err != 0 || y.rep_out.err != 0;
  for (int c = 0; c < nc; ++c) {
    y.quiet = y.quiet && y.core_out[c].running == 0 && y.core_out[c].req_valid == 0;
    y.err = y.err || y.core_out[c].err != 0;
  }
  for (int q = 0; q < np; ++q) {
    y.quiet = y.quiet && y.part_out[q].busy == 0;
    y.err = y.err || y.part_out[q].err != 0;
  }
  return y;
}

void SysBlocks::Tick(const SysBlocksCycle& y) {
  const int nc = num_cores(), np = num_parts();
  for (int c = 0; c < nc; ++c) {
    cores_[c].Tick(y.core_in[c]);
  }
  cid_arb_.Tick(y.cid_in);
  if (y.cid_out.gnt_valid != 0) {
    cid_ = (cid_ + 1) & LowMask(p_.core.cid_w);
  }
  xreq_.Tick(y.req_in);
  xrep_.Tick(y.rep_in);
  for (int q = 0; q < np; ++q) {
    parts_[q].Tick(y.part_in[q]);
  }
  req_cnt_ = req_cnt_ + std::popcount(y.req_in.req_valid & y.req_out.req_ready) -
             std::popcount(y.req_out.out_valid & y.req_in.out_ready);
  rep_cnt_ = rep_cnt_ + std::popcount(y.rep_in.req_valid & y.rep_out.req_ready) -
             std::popcount(y.rep_out.out_valid & y.rep_in.out_ready);
}

SysFabric::SysFabric(const SysFabricParams& p) : p_(p), blocks_(p) {
  core_in_.resize(p.core.num_cores);
  core_out_.resize(p.core.num_cores);
  logw_.resize(p.core.num_cores);
  logd_.resize(p.core.num_cores);
  addrs_.resize(p.core.num_parts);
  pos_.resize(p.core.num_parts);
  pending_.resize(p.core.num_parts);
  Reset();
}

void SysFabric::Reset() {
  blocks_.Reset();
  phase_ = Phase::kIdle;
  cycle_ = start_cycle_ = 0;
  for (auto& d : pending_) {
    d.clear();
  }
}

void SysFabric::Begin(const SysRunConfig& cfg, const std::vector<uint32_t>& init) {
  if (phase_ != Phase::kIdle && phase_ != Phase::kDone) {
    throw std::logic_error(std::string("sys fabric: Begin during the ") + ToString(phase_) +
                           " phase of a run");
  }
  std::ostringstream why;
  const SysCoreParams& cp = p_.core;
  if (cfg.workload != SysWl::kAtm && cfg.workload != SysWl::kHt && cfg.workload != SysWl::kEb) {
    why << "unknown workload " << static_cast<int>(cfg.workload);
  } else if (cfg.threads < 1 || cfg.threads >= (1 << 24)) {
    why << "threads " << cfg.threads << " not in 1..2^24 - 1";
  } else if (cfg.objlog2 < 0 || cfg.objlog2 > 31) {
    why << "objlog2 " << cfg.objlog2 << " not in 0..31";
  } else if (cfg.reads < 0 || cfg.reads > 16 || cfg.writes < 0 || cfg.writes > 16 || cfg.cold < 0 ||
             cfg.cold > 16) {
    why << "reads, writes and cold must each be in 0..16";
  } else if (SysRunReads(cfg) > cp.max_reads || SysRunWrites(cfg) > cp.max_writes) {
    why << "the workload needs " << SysRunReads(cfg) << " read and " << SysRunWrites(cfg)
        << " write log rows, the cores have " << cp.max_reads << " and " << cp.max_writes;
  } else if (init.size() > (uint64_t{1} << cp.addr_w)) {
    why << "the workload's memory (" << init.size()
        << " words) exceeds 2^AddrW = " << (uint64_t{1} << cp.addr_w) << " words";
  }
  if (!why.str().empty()) {
    throw std::invalid_argument("sys fabric: run refused: " + why.str());
  }
  cfg_ = cfg;
  seed_hash_ = ::htm::gpu::proto::SeedHash(cfg.seed);
  init_ = init;
  final_.assign(init.size(), 0);
  for (int q = 0; q < num_parts(); ++q) {
    addrs_[q].clear();
    pos_[q] = 0;
    pending_[q].clear();
  }
  for (uint64_t a = 0; a < init.size(); ++a) {
    addrs_[SysPartOf(blocks_.part_params(), a)].push_back(a);
  }
  ctr_ = SysRunCounters{};
  for (int c = 0; c < num_cores(); ++c) {
    logw_[c].clear();
    logd_[c].clear();
  }
  phase_ = Phase::kInit;
}

void SysFabric::Step() {
  const int nc = num_cores(), np = num_parts();

  SysBlocksIn bin;
  bin.start = phase_ == Phase::kStart;
  bin.cfg_wl = static_cast<uint64_t>(cfg_.workload);
  bin.cfg_threads = static_cast<uint64_t>(cfg_.threads);
  bin.cfg_objlog2 = static_cast<uint64_t>(cfg_.objlog2);
  bin.cfg_reads = static_cast<uint64_t>(cfg_.reads);
  bin.cfg_writes = static_cast<uint64_t>(cfg_.writes);
  bin.cfg_cold = static_cast<uint64_t>(cfg_.cold);
  bin.cfg_seed_hash = seed_hash_;
  bin.mt.resize(np);
  for (int q = 0; q < np; ++q) {
    if ((phase_ == Phase::kInit || phase_ == Phase::kReadBack) && pos_[q] < addrs_[q].size()) {
      const uint64_t a = addrs_[q][pos_[q]];
      bin.mt[q].valid = 1;
      bin.mt[q].we = phase_ == Phase::kInit;
      bin.mt[q].addr = a;
      bin.mt[q].wdata = phase_ == Phase::kInit ? init_[a] : 0;
    }
  }
  const SysBlocksCycle y = blocks_.Eval(bin);
  const std::vector<SysPartIn>& pin = y.part_in;
  const std::vector<SysPartOut>& pout = y.part_out;
  const XbarOut& xqo = y.req_out;
  const XbarOut& xro = y.rep_out;
  core_in_ = y.core_in;
  core_out_ = y.core_out;

  // Errors.
  for (int c = 0; c < nc; ++c) {
    if (core_out_[c].err != 0) {
      throw std::runtime_error("sys fabric: core " + std::to_string(c) + " raised err_o at cycle " +
                               std::to_string(cycle_));
    }
  }
  for (int q = 0; q < np; ++q) {
    if (pout[q].err != 0) {
      throw std::runtime_error("sys fabric: partition " + std::to_string(q) +
                               " raised err_o at cycle " + std::to_string(cycle_));
    }
  }
  if (xqo.err != 0 || xro.err != 0) {
    throw std::runtime_error(std::string("sys fabric: the ") +
                             (xqo.err != 0 ? "request" : "reply") +
                             " crossbar raised err_o at cycle " + std::to_string(cycle_));
  }

  // Records and counters.
  for (int c = 0; c < nc; ++c) {
    const SysCoreOut& o = core_out_[c];
    if (o.logw_valid != 0) {
      logw_[c].push_back(SysLogWord{cycle_, o.logw_cid, static_cast<uint32_t>(o.logw_thread),
                                    o.logw_write != 0, o.logw_addr,
                                    static_cast<uint32_t>(o.logw_data)});
    }
    if (o.logd_valid != 0) {
      logd_[c].push_back(SysLogDecision{cycle_, o.logd_cid, static_cast<uint32_t>(o.logd_thread),
                                        o.logd_commit != 0});
    }
    ctr_.commits += o.ev_commit;
    ctr_.aborts += o.ev_abort;
    ctr_.alloc_fails += o.ev_alloc_fail;
  }
  for (int q = 0; q < np; ++q) {
    ctr_.loads += pout[q].ev_load;
    ctr_.cu_msgs += pout[q].ev_cu_msg;
  }

  // Run control.
  Phase next = phase_;
  switch (phase_) {
    case Phase::kInit: {
      bool all = true;
      for (int q = 0; q < np; ++q) {
        if (pin[q].mt_valid != 0 && pout[q].mt_ready != 0) {
          ++pos_[q];
        }
        all = all && pos_[q] == addrs_[q].size();
      }
      if (all) {
        next = Phase::kStart;
      }
      break;
    }
    case Phase::kStart:
      start_cycle_ = cycle_;
      next = Phase::kRun;
      break;
    case Phase::kRun: {
      const bool quiet = y.quiet;
      ctr_.cycles = cycle_ - start_cycle_;
      if (quiet) {
        for (int q = 0; q < np; ++q) {
          pos_[q] = 0;
        }
        next = Phase::kReadBack;
      } else {
        const uint64_t budget = cfg_.max_cycles != 0
                                    ? cfg_.max_cycles
                                    : 100000 + 4000 * static_cast<uint64_t>(cfg_.threads);
        if (ctr_.cycles > budget) {
          throw std::runtime_error("sys fabric: the run did not end within " +
                                   std::to_string(budget) + " cycles (deadlock?) at cycle " +
                                   std::to_string(cycle_) + ":" + blocks_.Describe());
        }
      }
      break;
    }
    case Phase::kReadBack: {
      bool all = true;
      for (int q = 0; q < np; ++q) {
        if (pout[q].mt_rvalid != 0) {
          if (pending_[q].empty()) {
            throw std::logic_error("sys fabric: a maintenance read's word that was not asked");
          }
          final_[pending_[q].front()] = static_cast<uint32_t>(pout[q].mt_rdata);
          pending_[q].pop_front();
        }
        if (pin[q].mt_valid != 0 && pout[q].mt_ready != 0) {
          pending_[q].push_back(pin[q].mt_addr);
          ++pos_[q];
        }
        all = all && pos_[q] == addrs_[q].size() && pending_[q].empty();
      }
      if (all) {
        next = Phase::kDone;
      }
      break;
    }
    default:
      break;
  }

  // The clock edge.
  blocks_.Tick(y);
  phase_ = next;
  ++cycle_;
}

void SysFabric::Run() {
  while (!done()) {
    Step();
  }
}

}  // namespace htm::golden
