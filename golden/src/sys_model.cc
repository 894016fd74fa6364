// SPDX-License-Identifier: Apache-2.0
#include "htm/golden/sys_model.h"

#include <deque>
#include <stdexcept>

namespace htm::golden {

SysFabricParams SysFabricParamsOf(const SysParams& p) {
  SysFabricParams f;
  f.core = SysCoreParams{.num_cores = p.num_cores,
                         .num_warps = p.num_warps,
                         .warp_size = p.warp_size,
                         .num_parts = p.num_parts,
                         .addr_w = p.addr_w,
                         .ilv_log2 = p.ilv_log2,
                         .cid_w = p.cid_w,
                         .max_reads = p.max_reads,
                         .max_writes = p.max_writes,
                         .alloc_retry = p.alloc_retry};
  f.ring_size = p.ring_size;
  f.buf_words = p.buf_words;
  f.val_tags = p.val_tags;
  f.lwh_sets = p.lwh_sets;
  f.lwh_ways = p.lwh_ways;
  f.lwh_bf_hashes = p.lwh_bf_hashes;
  f.lwh_bf_slots = p.lwh_bf_slots;
  f.lwh_scrub_interval = p.lwh_scrub_interval;
  f.xbar_latency = p.xbar_latency;
  f.xbar_fifo_depth = p.xbar_fifo_depth;
  return f;
}

SysRunParams SysRunParamsOf(const SysParams& p) {
  return SysRunParams{.num_cores = p.num_cores,
                      .num_parts = p.num_parts,
                      .addr_w = p.addr_w,
                      .ilv_log2 = p.ilv_log2,
                      .max_reads = p.max_reads,
                      .max_writes = p.max_writes};
}

std::string CheckSysParams(const SysParams& p) {
  if (std::string e = CheckSysFabricParams(SysFabricParamsOf(p)); !e.empty()) {
    return e;
  }
  if (std::string e = CheckSysRunParams(SysRunParamsOf(p)); !e.empty()) {
    return "htm_sys_run: " + e;
  }
  return "";
}

namespace {

const SysParams& Checked(const SysParams& p) {
  if (std::string e = CheckSysParams(p); !e.empty()) {
    throw std::invalid_argument("htm_sys: " + e);
  }
  return p;
}

}  // namespace

SysModel::SysModel(const SysParams& p)
    : p_(Checked(p)), blocks_(SysFabricParamsOf(p)), run_(SysRunParamsOf(p)) {}

void SysModel::Reset() {
  blocks_.Reset();
  run_.Reset();
}

SysModel::Cycle SysModel::Resolve(const SysIn& in) const {
  const int nc = p_.num_cores, np = p_.num_parts;
  Cycle y;
  SysRunIn& ri = y.run_in;
  ri.start = in.start;
  ri.cfg_wl = in.cfg_wl;
  ri.cfg_threads = in.cfg_threads;
  ri.cfg_objlog2 = in.cfg_objlog2;
  ri.cfg_reads = in.cfg_reads;
  ri.cfg_writes = in.cfg_writes;
  ri.cfg_cold = in.cfg_cold;
  ri.cfg_seed = in.cfg_seed;
  ri.ctr_sel = in.ctr_sel;
  // The run control's outputs that drive the blocks are registers: its inputs from the blocks
  // do not reach them in the cycle.
  const SysRunOut ro = run_.Eval(ri);

  SysBlocksIn bi;
  bi.start = ro.core_start;
  bi.cfg_wl = ro.run_wl;
  bi.cfg_threads = ro.run_threads;
  bi.cfg_objlog2 = ro.run_objlog2;
  bi.cfg_reads = ro.run_reads;
  bi.cfg_writes = ro.run_writes;
  bi.cfg_cold = ro.run_cold;
  bi.cfg_seed_hash = ro.run_seed_hash;
  bi.mt.resize(np);
  for (int q = 0; q < np; ++q) {
    bi.mt[q].valid = (ro.mt_valid >> q) & 1U;
    bi.mt[q].we = (ro.mt_we >> q) & 1U;
    bi.mt[q].addr = ro.mt_addr[q];
    bi.mt[q].wdata = ro.mt_wdata[q];
  }
  y.blocks = blocks_.Eval(bi);
  const SysBlocksCycle& b = y.blocks;

  ri.quiet = b.quiet ? 1 : 0;
  for (int q = 0; q < np; ++q) {
    ri.mt_ready |= (b.part_out[q].mt_ready & 1U) << q;
    ri.mt_rvalid |= (b.part_out[q].mt_rvalid & 1U) << q;
    ri.mt_rdata[q] = b.part_out[q].mt_rdata;
    ri.ev_load |= (b.part_out[q].ev_load & 1U) << q;
    ri.ev_cu_msg |= (b.part_out[q].ev_cu_msg & 1U) << q;
    ri.cu_busy |= (b.part_out[q].cu_busy & 1U) << q;
  }
  for (int c = 0; c < nc; ++c) {
    ri.ev_commit |= (b.core_out[c].ev_commit & 1U) << c;
    ri.ev_abort |= (b.core_out[c].ev_abort & 1U) << c;
    ri.ev_alloc_fail |= (b.core_out[c].ev_alloc_fail & 1U) << c;
  }
  y.run_out = run_.Eval(ri);
  return y;
}

SysOut SysModel::Eval(const SysIn& in) const {
  const Cycle y = Resolve(in);
  const SysRunOut& ro = y.run_out;
  SysOut o;
  o.busy = ro.busy;
  o.done = ro.done;
  o.cfg_err = ro.cfg_err;
  o.cfg_err_code = ro.cfg_err_code;
  o.check_ok = ro.check_ok;
  o.check_code = ro.check_code;
  o.check_idx = ro.check_idx;
  o.ctr = ro.ctr;
  // Choice: err_o is the OR of the blocks' (each sticky) err_o, with no register of its own.
  o.err = y.blocks.err ? 1 : 0;
  for (int c = 0; c < p_.num_cores; ++c) {
    const SysCoreOut& co = y.blocks.core_out[c];
    o.logw_valid |= (co.logw_valid & 1U) << c;
    o.logw_cid[c] = co.logw_cid;
    o.logw_thread[c] = co.logw_thread;
    o.logw_write[c] = co.logw_write;
    o.logw_addr[c] = co.logw_addr;
    o.logw_data[c] = co.logw_data;
    o.logd_valid |= (co.logd_valid & 1U) << c;
    o.logd_cid[c] = co.logd_cid;
    o.logd_thread[c] = co.logd_thread;
    o.logd_commit[c] = co.logd_commit;
  }
  return o;
}

void SysModel::Tick(const SysIn& in) {
  const Cycle y = Resolve(in);
  blocks_.Tick(y.blocks);
  run_.Tick(y.run_in);
}

std::vector<uint32_t> SysModel::ReadMemory(uint64_t words) const {
  SysBlocks b = blocks_;
  const SysPartParams& pp = b.part_params();
  const int np = p_.num_parts;
  std::vector<std::vector<uint64_t>> addrs(np);
  for (uint64_t a = 0; a < words; ++a) {
    addrs[SysPartOf(pp, a)].push_back(a);
  }
  std::vector<size_t> pos(np, 0);
  std::vector<std::deque<uint64_t>> pending(np);
  std::vector<uint32_t> mem(words, 0);
  // At most one read per partition per cycle, each answered two cycles after it is taken.
  const uint64_t budget = 16 * words + 64;
  for (uint64_t cycle = 0;; ++cycle) {
    bool all = true;
    for (int q = 0; q < np; ++q) {
      all = all && pos[q] == addrs[q].size() && pending[q].empty();
    }
    if (all) {
      break;
    }
    if (cycle > budget) {
      throw std::logic_error("htm_sys model: the maintenance reads did not end");
    }
    SysBlocksIn bi;
    bi.mt.resize(np);
    for (int q = 0; q < np; ++q) {
      if (pos[q] < addrs[q].size()) {
        bi.mt[q].valid = 1;
        bi.mt[q].addr = addrs[q][pos[q]];
      }
    }
    const SysBlocksCycle y = b.Eval(bi);
    for (int q = 0; q < np; ++q) {
      if (y.part_out[q].mt_rvalid != 0) {
        if (pending[q].empty()) {
          throw std::logic_error("htm_sys model: a maintenance word that was not asked");
        }
        mem[pending[q].front()] = static_cast<uint32_t>(y.part_out[q].mt_rdata);
        pending[q].pop_front();
      }
      if (bi.mt[q].valid != 0 && y.part_out[q].mt_ready != 0) {
        pending[q].push_back(bi.mt[q].addr);
        ++pos[q];
      }
    }
    b.Tick(y);
  }
  return mem;
}

}  // namespace htm::golden
