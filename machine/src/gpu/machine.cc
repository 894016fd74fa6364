// SPDX-License-Identifier: Apache-2.0
//
// The machine's construction, its main loop and idle skipping, and the memory partitions: see
// machine.h.
#include "machine.h"

#include <algorithm>
#include <exception>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "htm/golden/cat_model.h"
#include "htm/golden/intra_warp_cd_model.h"
#include "htm/golden/pag_check_model.h"
#include "htm/golden/postdate_model.h"
#include "htm/golden/rct_model.h"
#include "htm/golden/reader_list_model.h"
#include "htm/golden/tcd_model.h"
#include "htm/golden/writer_table_model.h"
#include "tm_policy.h"

namespace htm::gpu {

Machine::Machine(const MachineConfig& m, TmMode t, Workload& w, const RunOptions& o)
    : cfg(m), tm(t), workload(w), opt(o), icnt(m, stats) {
  // (The parts keep pointers to each other: reserve, so that none moves.)
  cores.reserve(static_cast<size_t>(m.cores));
  for (int c = 0; c < m.cores; ++c) {
    cores.emplace_back(*this, c);
  }
  partitions.reserve(static_cast<size_t>(m.partitions));
  for (int u = 0; u < m.partitions; ++u) {
    partitions.emplace_back(*this, u);
  }
  policy = TmPolicy::Make(*this, t);
}

Machine::~Machine() = default;

RunResult Machine::Run() {
  RunResult r;
  try {
    RunInner();
  } catch (const golden::InstanceMismatch& e) {
    error = e.what();
    r.mismatch = true;
  } catch (const std::exception& e) {
    Fail(std::string("thread ") + std::to_string(current) + " threw: " + e.what());
  }
  r.stats = stats;
  r.stats.cycles = now();
  r.stats.threads = static_cast<uint64_t>(workload.threads());
  r.mem = mem;
  try {
    if (error.empty() && serial) {
      policy->Finish();
    }
    if (!r.mismatch) {
      policy->FinalStats(r.stats);  // (reads the blocks' ports: not after a departure)
    }
  } catch (const golden::InstanceMismatch& e) {
    error = error.empty() ? e.what() : error;
    r.mismatch = true;
  }
  if (error.empty() && serial && !serial->Finish(mem)) {
    Fail(serial->error());
  } else if (!error.empty() && serial) {
    serial->Stop(error);
  }
  r.stats.log_events = serial ? serial->events() : 0;
  r.energy = EnergyOf(r.stats, cfg, tm);
  if (error.empty()) {
    r.check = workload.Check(mem);
  }
  r.error = error;
  r.ok = error.empty() && r.check.empty();
  // Coverage: every instance's events, summed per block (docs/coverage.md).
  for (const auto& [block, inst] : instances) {
    auto it = std::find_if(r.coverage.begin(), r.coverage.end(),
                           [&](const BlockCoverage& b) { return b.block == block; });
    if (it == r.coverage.end()) {
      r.coverage.push_back(BlockCoverage{block, 0, 0, {}});
      it = r.coverage.end() - 1;
    }
    ++it->instances;
    if (const std::optional<golden::Coverage> c = inst->coverage()) {
      golden::AddCoverage(it->events, *c);
    } else {
      ++it->without;
    }
  }
  return r;
}

void Machine::RunInner() {
  mem = workload.Init();
  serial = std::make_unique<Serializer>(mem, opt.log);
  policy->Start();
  const int nthreads = workload.threads();
  if (nthreads < 1 || nthreads % 32 != 0) {
    Fail("the workload has " + std::to_string(nthreads) + " threads, not a multiple of 32");
    return;
  }
  threads.resize(static_cast<size_t>(nthreads));
  warps = std::vector<Warp>(static_cast<size_t>(nthreads / 32));
  for (size_t wi = 0; wi < warps.size(); ++wi) {
    warps[wi].core = static_cast<int>(wi % static_cast<size_t>(cfg.cores));
    warps[wi].first = static_cast<int>(wi) * 32;
    cores[static_cast<size_t>(warps[wi].core)].waiting.push_back(static_cast<int>(wi));
  }
  for (SimtCore& c : cores) {
    c.Launch();
  }
  const uint64_t limit = opt.max_cycles != 0 ? opt.max_cycles : 200'000'000;
  uint64_t last_progress = 0;
  while (error.empty() && (done_threads < nthreads || !Quiet())) {
    if (now() >= limit) {
      Fail("no end after " + std::to_string(limit) + " cycles (deadlock or livelock?); " +
           Summary());
      return;
    }
    loop.RunDue([this] { return error.empty(); });
    if (!serial->error().empty()) {
      Fail(serial->error());
      return;
    }
    bool active = false;
    for (int c = 0; c < cfg.cores && error.empty(); ++c) {
      active |= cores[static_cast<size_t>(c)].IssueCycle();
      active |= policy->CoreCycle(c);
    }
    if (now() % 2 == 0) {  // the commit units run at half the core clock
      for (int u = 0; u < cfg.partitions && error.empty(); ++u) {
        active |= partitions[static_cast<size_t>(u)].Cycle();
      }
    }
    if (opt.progress && now() - last_progress >= 100000) {
      last_progress = now();
      opt.progress(now(), static_cast<uint64_t>(done_threads), static_cast<uint64_t>(nthreads));
    }
    ++loop.now;
    if (!active && opt.skip_idle) {
      SkipIdle();
    }
  }
}

bool Machine::Working() const {
  for (const MemoryPartition& p : partitions) {
    if (p.Working()) {
      return true;
    }
  }
  return policy->Working();
}

void Machine::SkipIdle() {
  uint64_t next = UINT64_MAX;
  if (!loop.empty()) {
    next = loop.next();
  }
  for (const SimtCore& c : cores) {
    c.NextWake(&next);
  }
  policy->NextWake(&next);
  if (Working()) {
    next = now();
  }
  if (next != UINT64_MAX && next > now()) {
    loop.now = next;
  }
}

void Machine::Fail(const std::string& what) {
  if (error.empty()) {
    error = "cycle " + std::to_string(now()) + ": " + what;
  }
}

std::string Machine::Describe(int t) const {
  const Op& op = threads[static_cast<size_t>(t)].lane->op();
  std::ostringstream os;
  os << "thread " << t << " (warp " << t / 32 << ") at " << OpKindName(op.kind);
  if (IsMemAccess(op.kind)) {
    os << " of word " << op.addr;
  }
  if (op.kind != OpKind::kDone) {
    os << " at line " << PcText(op.pc);
  }
  return os.str();
}

std::string Machine::DescribeCid(uint64_t cid_low) const {
  const auto it = by_cid.find(cid_low);
  if (it == by_cid.end()) {
    return "commit id " + std::to_string(cid_low) + " (low bits; no core is committing it)";
  }
  const Committer& cm = *it->second;
  return "commit id " + std::to_string(cm.cid) + " (thread " + std::to_string(cm.thread) +
         ", warp " + std::to_string(cm.warp) + ", core " + std::to_string(cm.core) + ")";
}

std::string Machine::WavesFor(const std::string& name) const {
  const RtlSelection& r = opt.rtl;
  if (r.waves.empty()) {
    return "";
  }
  if (!r.waves_instance.empty()) {
    return r.waves_instance == name ? r.waves : "";
  }
  const std::string& w = r.waves;
  const size_t dot = w.rfind('.');
  const size_t slash = w.rfind('/');
  const bool ext = dot != std::string::npos && (slash == std::string::npos || dot > slash);
  return (ext ? w.substr(0, dot) : w) + "." + name + (ext ? w.substr(dot) : ".fst");
}

std::string Machine::Summary() const {
  std::ostringstream os;
  os << done_threads << " of " << threads.size() << " threads finished";
  int shown = 0;
  for (size_t t = 0; t < threads.size() && shown < 3; ++t) {
    if (threads[t].lane && !threads[t].done) {
      os << (shown++ ? "; " : "; e.g. ") << Describe(static_cast<int>(t));
    }
  }
  return os.str();
}

// ---- Memory partitions ------------------------------------------------------------------------

MemoryPartition::MemoryPartition(Machine& m, int id)
    : m_(m),
      id_(id),
      unit_(m.MakeBlock<golden::CommitUnitModel>("htm_commit_unit",
                                                 "partition" + std::to_string(id) + ".commit_unit",
                                                 m.cfg.cu, [this] { return Context(); })) {}

std::string MemoryPartition::Context() const {
  std::ostringstream os;
  os << "commit unit of partition " << id_ << ": " << in_.size() << " messages queued";
  if (!in_.empty()) {
    const CuIn& f = in_.front();
    os << ", the first " << ToString(f.m.type) << " from core " << f.core << " for "
       << m_.DescribeCid(f.cid & golden::LowMask(m_.cfg.cu.cid_w));
    if (f.m.type == CuMsg::kReadSet || f.m.type == CuMsg::kWriteSet) {
      os << ", word " << f.m.addr << " value " << f.m.data;
    }
  }
  os << "; " << vr_.size() << " validation reads and " << cw_.size() << " commit writes in flight";
  return os.str();
}

bool MemoryPartition::Cycle() {
  const MachineConfig& cfg = m_.cfg;
  const uint64_t now = m_.now();
  golden::CommitUnitIn in;
  const bool offered = !in_.empty();
  if (offered) {
    const CuIn& f = in_.front();
    in.in_valid = 1;
    in.in_type = static_cast<uint64_t>(f.m.type);
    in.in_cid = f.cid & golden::LowMask(cfg.cu.cid_w);
    in.in_src = static_cast<uint64_t>(f.core);
    in.in_addr = f.m.addr;
    in.in_data = f.m.data;
  }
  in.vr_req_ready = 1;
  in.cw_req_ready = 1;
  if (!vr_.empty() && vr_.front().due <= now) {
    in.vr_rsp_valid = 1;
    in.vr_rsp_tag = vr_.front().tag;
    in.vr_rsp_data = m_.mem[vr_.front().addr];
    vr_.pop_front();
  }
  if (!cw_.empty() && cw_.front().due <= now) {
    in.cw_ack_valid = 1;
    m_.mem[cw_.front().addr] = cw_.front().data;
    m_.policy->OnMemoryWritten(cw_.front().addr);
    cw_.pop_front();
  }
  const golden::CommitUnitOut out = unit_->Eval(in);
  unit_->Tick(in);
  const bool beside = m_.policy->PartitionCycle(id_, out);
  ++m_.stats.cu_cycles;
  // Work for the next tick: open entries, the history's sweep, and a message taken or a reply
  // sent now (a registered reply follows the message it answers). The sweep after reset ends at
  // an edge: whether it goes on is the next cycle's sweep output (a function of the state
  // alone), read only while the unit sweeps. (A scrub the history forces between operations
  // comes with open entries, which keep the unit busy anyway.)
  const bool sweeping = out.sweep != 0 && unit_->Eval(golden::CommitUnitIn{}).sweep != 0;
  working_ = out.busy != 0 || sweeping || offered || out.arep_valid != 0 || out.rep_valid != 0;
  m_.stats.cu_busy_cycles += out.busy;
  if (out.err) {
    m_.Fail("commit unit " + std::to_string(id_) + " flagged a protocol error");
    return true;
  }
  if (offered && out.in_ready) {
    const CuMsg type = in_.front().m.type;
    (type == CuMsg::kAlloc                                 ? m_.stats.cu_in_allocs
     : type == CuMsg::kReadSet || type == CuMsg::kWriteSet ? m_.stats.cu_in_words
                                                           : m_.stats.cu_in_entry) += 1;
    in_.pop_front();
  }
  // Energy events (docs/energy.md): a stored word is a buffer write and an LWH operation, the
  // memory operations are accesses at the partition, and every reply a message to a core.
  if (out.rct_inc_valid) {
    (out.rct_inc_write ? m_.stats.cu_write_words_stored : m_.stats.cu_read_words_stored) += 1;
  }
  m_.stats.cu_validation_reads += out.vr_req_valid;
  m_.stats.cu_commit_writes += out.cw_req_valid;
  for (int r = 0; r < static_cast<int>(out.arep_valid + out.rep_valid); ++r) {
    ++m_.stats.cu_replies;
    m_.icnt.CountMessage(0);
  }
  if (out.vr_req_valid) {
    vr_.push_back({now + static_cast<uint64_t>(cfg.cu_mem_latency),
                   static_cast<uint32_t>(out.vr_req_addr), 0, out.vr_req_tag});
  }
  if (out.cw_req_valid) {
    const auto addr = static_cast<uint32_t>(out.cw_req_addr);
    if (m_.icnt.PartitionOf(addr) != id_ || !m_.InMemory(addr)) {
      m_.Fail("commit unit " + std::to_string(id_) + " wrote word " + std::to_string(addr) +
              " of another partition");
      return true;
    }
    cw_.push_back({now + static_cast<uint64_t>(cfg.cu_mem_latency), addr,
                   static_cast<uint32_t>(out.cw_req_data), 0});
  }
  const auto reply_at = now + static_cast<uint64_t>(cfg.icnt_latency);
  const int u = id_;
  if (out.arep_valid) {
    const uint64_t cid = out.arep_cid;
    const bool pass = out.arep_pass != 0;
    m_.At(reply_at, [this, u, cid, pass] { m_.Reply(u, cid, pass ? -1 : -2); });
  }
  if (out.rep_valid) {
    const uint64_t cid = out.rep_cid;
    const int type = static_cast<int>(out.rep_type);
    const bool cap = out.rep_type == static_cast<uint64_t>(CuRep::kFail) && out.rep_cap != 0;
    m_.At(reply_at, [this, u, cid, type, cap] { m_.Reply(u, cid, type, cap); });
  }
  return offered || working_ || beside;
}

namespace {

template <class Ports>
BlockUse Use(const char* block, int instances, const typename Ports::Params& p) {
  return BlockUse{block, instances,
                  [block, p](const golden::InstanceFactory& f, golden::Impl impl) {
                    return f.Check(impl, block, typeid(Ports), &p);
                  },
                  &p};
}

}  // namespace

std::vector<BlockUse> MachineBlocks(const MachineConfig& m, TmMode tm) {
  std::vector<BlockUse> uses;
  uses.push_back(Use<golden::CommitUnitPorts>("htm_commit_unit", m.partitions, m.cu));
  if (tm != TmMode::kSerial) {
    uses.push_back(
        Use<golden::TxSimtStackPorts>("htm_tx_simt_stack", m.cores * m.warps_per_core, m.simt));
  }
  const bool warptm = tm == TmMode::kWarpTm || tm == TmMode::kWarpTmEa || tm == TmMode::kWarpTmPg ||
                      tm == TmMode::kWarpTmEaPg;
  const bool ea = tm == TmMode::kWarpTmEa || tm == TmMode::kWarpTmEaPg;
  const bool pg = tm == TmMode::kWarpTmPg || tm == TmMode::kWarpTmEaPg;
  if (warptm) {
    uses.push_back(Use<golden::IntraWarpCdPorts>("htm_intra_warp_cd", m.cores, m.iwcd));
    if (m.tcd_on) {
      uses.push_back(Use<golden::TcdPorts>("htm_tcd", m.cores, m.tcd));
    }
  }
  if (ea || pg) {
    uses.push_back(Use<golden::RctPorts>("htm_rct", m.partitions, m.rct));
    uses.push_back(Use<golden::CatPorts>("htm_cat", m.cores, m.cat));
  }
  if (pg) {
    uses.push_back(Use<golden::PagCheckPorts>("htm_pag_check", m.cores, m.pag));
  }
  if (IsSi(tm)) {
    uses.push_back(Use<golden::VersionIndexPorts>("htm_version_index", 1, m.vit));
  }
  if (tm == TmMode::kSitm) {
    uses.push_back(Use<golden::WriterTablePorts>("htm_writer_table", 1, m.wt));
    uses.push_back(Use<golden::ReaderListPorts>("htm_reader_list", 1, m.rl));
    uses.push_back(Use<golden::PostdatePorts>("htm_postdate", 1, m.pd));
  }
  return uses;
}

RunResult RunSystem(const MachineConfig& m, TmMode tm, Workload& w, const RunOptions& opt) {
  if (std::string err = CheckMachine(m); !err.empty()) {
    throw std::invalid_argument("machine '" + m.name + "': " + err);
  }
  if (!opt.rtl.blocks.empty()) {
    if (opt.rtl.factory == nullptr || opt.rtl.impl == golden::Impl::kGolden) {
      throw std::invalid_argument("RTL blocks selected without an RTL implementation");
    }
    const std::vector<BlockUse> uses = MachineBlocks(m, tm);
    for (const std::string& b : opt.rtl.blocks) {
      const auto it =
          std::find_if(uses.begin(), uses.end(), [&](const BlockUse& u) { return u.block == b; });
      if (it == uses.end()) {
        throw std::invalid_argument("the machine has no " + b + " under " + ToString(tm));
      }
      if (std::string err = it->check(*opt.rtl.factory, opt.rtl.impl); !err.empty()) {
        throw std::invalid_argument(err);
      }
    }
  }
  if (m.partitions > 64) {
    throw std::invalid_argument("machine '" + m.name + "': at most 64 partitions");
  }
  if (tm == TmMode::kFgl && !w.HasLocks()) {
    throw std::invalid_argument("the workload has no fine-grained-lock version (fgl)");
  }
  Machine machine(m, tm, w, opt);
  return machine.Run();
}

}  // namespace htm::gpu
