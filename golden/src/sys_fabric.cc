// SPDX-License-Identifier: Apache-2.0
#include "htm/golden/sys_fabric.h"

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
  return pp;
}

XbarParams SysFabricReqXbarParams(const SysFabricParams& p) {
  const SysPartParams m = SysCoreMsgParams(p.core);
  return XbarParams{.num_src = p.core.num_cores,
                    .num_dst = p.core.num_parts,
                    .data_w = SysPartReqW(m.cid_w, m.route_w, m.addr_w, m.data_w),
                    .latency = p.xbar_latency,
                    .fifo_depth = p.xbar_fifo_depth};
}

XbarParams SysFabricRepXbarParams(const SysFabricParams& p) {
  const SysPartParams m = SysCoreMsgParams(p.core);
  return XbarParams{.num_src = p.core.num_parts,
                    .num_dst = p.core.num_cores,
                    .data_w = SysPartRepW(m.cid_w, m.route_w, m.data_w),
                    .latency = p.xbar_latency,
                    .fifo_depth = p.xbar_fifo_depth};
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

const SysFabricParams& SysFabric::Checked(const SysFabricParams& p) {
  if (std::string e = CheckSysFabricParams(p); !e.empty()) {
    throw std::invalid_argument("sys fabric: " + e);
  }
  return p;
}

SysFabric::SysFabric(const SysFabricParams& p)
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
    addrs_[SysPartOf(pp_, a)].push_back(a);
  }
  ctr_ = SysRunCounters{};
  for (int c = 0; c < num_cores(); ++c) {
    logw_[c].clear();
    logd_[c].clear();
  }
  phase_ = Phase::kInit;
}

bool SysFabric::XbarEmpty(const XbarModel& x) const {
  for (int d = 0; d < x.params().num_dst; ++d) {
    if (x.in_link(d) != 0 || x.in_fifo(d) != 0) {
      return false;
    }
  }
  return true;
}

std::string SysFabric::Describe() const {
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

void SysFabric::Step() {
  const int nc = num_cores(), np = num_parts();

  // The cores' outputs are registers.
  for (int c = 0; c < nc; ++c) {
    core_out_[c] = cores_[c].Eval(SysCoreIn{});
  }
  // The commit-id allocator.
  RrArbIn ain;
  for (int c = 0; c < nc; ++c) {
    ain.req |= core_out_[c].cid_req << c;
  }
  ain.ack = 1;
  const RrArbOut aout = cid_arb_.Eval(ain);
  // The request crossbar: its ready from the requests, its outputs from its FIFOs.
  XbarIn xq;
  for (int c = 0; c < nc; ++c) {
    if (core_out_[c].req_valid != 0) {
      XbarSetReq(xqp_, xq, c, core_out_[c].req_dst, XbarData{core_out_[c].req_data});
    }
  }
  const XbarOut xqo = xreq_.Eval(xq);
  // The partitions: their replies and maintenance data are registers; their request ready
  // depends on the request crossbar's outputs, not on rep_ready_i.
  std::vector<SysPartIn> pin(np);
  std::vector<SysPartOut> pout(np);
  for (int q = 0; q < np; ++q) {
    SysPartIn& in = pin[q];
    in.part_idx = static_cast<uint64_t>(q);
    in.req_valid = (xqo.out_valid >> q) & 1U;
    in.req_src = xqo.out_src[q];
    in.req_data = XbarOutData(xqp_, xqo, q)[0];
    if ((phase_ == Phase::kInit || phase_ == Phase::kReadBack) && pos_[q] < addrs_[q].size()) {
      const uint64_t a = addrs_[q][pos_[q]];
      in.mt_valid = 1;
      in.mt_we = phase_ == Phase::kInit;
      in.mt_addr = a;
      in.mt_wdata = phase_ == Phase::kInit ? init_[a] : 0;
    }
    pout[q] = parts_[q].Eval(in);
  }
  // The reply crossbar: always taken by the cores.
  XbarIn xr;
  for (int q = 0; q < np; ++q) {
    if (pout[q].rep_valid != 0) {
      XbarSetReq(xrp_, xr, q, pout[q].rep_dst, XbarData{pout[q].rep_data});
    }
  }
  xr.out_ready = LowMask(nc);
  const XbarOut xro = xrep_.Eval(xr);
  for (int q = 0; q < np; ++q) {
    pin[q].rep_ready = (xro.req_ready >> q) & 1U;
    xq.out_ready |= pout[q].req_ready << q;
  }
  // The cores' inputs.
  for (int c = 0; c < nc; ++c) {
    SysCoreIn& in = core_in_[c];
    in = SysCoreIn{};
    in.core_idx = static_cast<uint64_t>(c);
    in.start = phase_ == Phase::kStart;
    in.cfg_wl = static_cast<uint64_t>(cfg_.workload);
    in.cfg_threads = static_cast<uint64_t>(cfg_.threads);
    in.cfg_objlog2 = static_cast<uint64_t>(cfg_.objlog2);
    in.cfg_reads = static_cast<uint64_t>(cfg_.reads);
    in.cfg_writes = static_cast<uint64_t>(cfg_.writes);
    in.cfg_cold = static_cast<uint64_t>(cfg_.cold);
    in.cfg_seed_hash = seed_hash_;
    in.cid_gnt = (aout.gnt >> c) & 1U;
    in.cid = cid_;
    in.req_ready = (xqo.req_ready >> c) & 1U;
    in.rep_valid = (xro.out_valid >> c) & 1U;
    in.rep_src = xro.out_src[c];
    in.rep_data = XbarOutData(xrp_, xro, c)[0];
  }

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
      bool quiet = XbarEmpty(xreq_) && XbarEmpty(xrep_);
      for (int c = 0; c < nc; ++c) {
        quiet = quiet && core_out_[c].running == 0 && core_out_[c].req_valid == 0;
      }
      for (int q = 0; q < np; ++q) {
        quiet = quiet && pout[q].busy == 0;
      }
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
                                   std::to_string(cycle_) + ":" + Describe());
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
  for (int c = 0; c < nc; ++c) {
    cores_[c].Tick(core_in_[c]);
  }
  cid_arb_.Tick(ain);
  if (aout.gnt_valid != 0) {
    cid_ = (cid_ + 1) & LowMask(p_.core.cid_w);
  }
  xreq_.Tick(xq);
  xrep_.Tick(xr);
  for (int q = 0; q < np; ++q) {
    parts_[q].Tick(pin[q]);
  }
  phase_ = next;
  ++cycle_;
}

void SysFabric::Run() {
  while (!done()) {
    Step();
  }
}

}  // namespace htm::golden
