// SPDX-License-Identifier: Apache-2.0
//
// The commit log of an htm_sys run, assembled from its commit-log port: see
// htm/tb/sys_commit_log.h. The lines are written by htmsim's own writer (JsonLogWriter), so that
// the file is what `htmsim run --commit-log` writes, with the prototype workload's parameters
// added to the header.
#include "htm/tb/sys_commit_log.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <sstream>

#include <nlohmann/json.hpp>

#include "htm/machine/gpu/commit_log.h"

namespace htm::tb {

namespace {

namespace proto = ::htm::gpu::proto;

bool SameParams(const proto::Params& a, const proto::Params& b) {
  return a.kind == b.kind && a.threads == b.threads && a.objects_log2 == b.objects_log2 &&
         a.reads == b.reads && a.writes == b.writes && a.cold == b.cold && a.seed == b.seed;
}

// The scale whose parameters are `w`'s (htmsim run --workload ATM-P --scale ... --seed ...
// rebuilds the same initial memory), else "custom": the header's sizes say what ran.
std::string ScaleOf(const proto::Params& w) {
  for (const gpu::Scale s : {gpu::Scale::kSmall, gpu::Scale::kDefault}) {
    if (SameParams(proto::ParamsAt(w.kind, s, w.seed), w)) {
      return gpu::ToString(s);
    }
  }
  return "custom";
}

}  // namespace

SysCommitLog::SysCommitLog(const golden::SysParams& p, std::string machine)
    : num_cores_(p.num_cores), cid_w_(p.cid_w), machine_(std::move(machine)) {}

void SysCommitLog::Begin(const gpu::proto::Params& w) {
  w_ = w;
  cycle_ = 0;
  any_cid_ = false;
  newest_ = 0;
  open_.clear();
  committed_.clear();
  aborted_ = wraps_ = 0;
  fault_.clear();
}

int64_t SysCommitLog::Unwrap(uint64_t cid) {
  const int64_t span = int64_t{1} << cid_w_;
  if (!any_cid_) {
    any_cid_ = true;
    newest_ = static_cast<int64_t>(cid);
    return newest_;
  }
  // The distance from the newest id, taken in [-2^(CidW-1), 2^(CidW-1)).
  int64_t d = (static_cast<int64_t>(cid) - newest_) & (span - 1);
  if (d >= span / 2) {
    d -= span;
  }
  const int64_t u = newest_ + d;
  if (u > newest_) {
    wraps_ += static_cast<uint64_t>(u / span - newest_ / span);
    newest_ = u;
  }
  return u;
}

SysCommitLog::Tx& SysCommitLog::Open(uint64_t cid, uint64_t thread, const char* what) {
  auto it = open_.find(cid);
  if (it == open_.end()) {
    Tx t;
    t.cid = Unwrap(cid);
    t.thread = thread;
    it = open_.emplace(cid, std::move(t)).first;
  } else if (it->second.thread != thread) {
    Fault(std::string("a ") + what + " of commit id " + std::to_string(cid) + " for thread " +
          std::to_string(thread) + ", whose records are thread " +
          std::to_string(it->second.thread) + "'s");
  }
  return it->second;
}

void SysCommitLog::Fault(const std::string& why) {
  if (fault_.empty()) {
    fault_ = "cycle " + std::to_string(cycle_) + " of the run: " + why;
  }
}

void SysCommitLog::Record(const golden::SysOut& out) {
  ++cycle_;
  for (int c = 0; c < num_cores_; ++c) {
    if (((out.logw_valid >> c) & 1U) == 0) {
      continue;
    }
    Tx& t = Open(out.logw_cid[c], out.logw_thread[c], "record");
    (out.logw_write[c] != 0 ? t.writes : t.reads)
        .emplace_back(static_cast<uint32_t>(out.logw_addr[c]),
                      static_cast<uint32_t>(out.logw_data[c]));
  }
  for (int c = 0; c < num_cores_; ++c) {
    if (((out.logd_valid >> c) & 1U) == 0) {
      continue;
    }
    const uint64_t cid = out.logd_cid[c];
    Tx& t = Open(cid, out.logd_thread[c], "decision");
    t.cycle = cycle_;
    if (out.logd_commit[c] != 0) {
      committed_.push_back(std::move(t));
    } else {
      ++aborted_;
    }
    open_.erase(cid);
  }
}

std::string SysCommitLog::Log(const std::vector<uint32_t>& final_mem) const {
  using Json = nlohmann::ordered_json;
  const std::vector<uint32_t> initial = proto::Make(w_)->Init();
  const gpu::JsonLogWriter::Header h{proto::ToString(w_.kind), "kilotm", machine_, ScaleOf(w_),
                                     w_.seed};
  // htmsim's header, with the workload's parameters before the memory's size.
  std::ostringstream head;
  gpu::JsonLogWriter(head, h).Begin(initial);
  const Json parsed = Json::parse(head.str());
  Json header;
  for (const auto& [key, value] : parsed.items()) {
    if (key == "words") {
      header["threads"] = w_.threads;
      header["objects_log2"] = w_.objects_log2;
      header["reads"] = w_.reads;
      header["writes"] = w_.writes;
      header["cold"] = w_.cold;
    }
    header[key] = value;
  }
  std::ostringstream os;
  os << header.dump() << "\n";

  std::vector<Tx> txs = committed_;
  std::stable_sort(txs.begin(), txs.end(), [](const Tx& a, const Tx& b) { return a.cid < b.cid; });
  // An attempt with records and no decision: the log stops before the transactions after it.
  const Tx* undecided = nullptr;
  uint64_t undecided_cid = 0;
  for (const auto& [cid, t] : open_) {
    if (undecided == nullptr || t.cid < undecided->cid) {
      undecided = &t;
      undecided_cid = cid;
    }
  }
  std::string fault = fault_;
  if (fault.empty() && undecided != nullptr) {
    fault = "commit id " + std::to_string(undecided_cid) + " (thread " +
            std::to_string(undecided->thread) + ") has records and no decision";
  }
  const int64_t end = undecided != nullptr ? undecided->cid : INT64_MAX;
  gpu::JsonLogWriter writer(os, h);
  std::vector<int64_t> writer_of(initial.size(), -1);  // the latest event that wrote a word
  const uint64_t cid_mask = (uint64_t{1} << cid_w_) - 1;
  for (size_t i = 0; i < txs.size() && txs[i].cid < end; ++i) {
    const Tx& t = txs[i];
    if (i > 0 && t.cid == txs[i - 1].cid && fault.empty()) {
      fault = "commit id " + std::to_string(static_cast<uint64_t>(t.cid) & cid_mask) +
              " committed twice";
    }
    gpu::LogEvent e;
    e.kind = gpu::LogEvent::Kind::kTx;
    e.id = i;
    e.thread = static_cast<int>(t.thread);
    e.cid = static_cast<uint64_t>(t.cid) & cid_mask;
    e.cycle = t.cycle;
    for (const auto& [a, v] : t.reads) {
      e.reads.push_back({a, v, a < writer_of.size() ? writer_of[a] : -1});
    }
    e.writes = t.writes;
    writer.Event(e);
    for (const auto& [a, v] : t.writes) {
      if (a < writer_of.size()) {
        writer_of[a] = static_cast<int64_t>(i);
      }
    }
  }
  if (fault.empty()) {
    writer.End(final_mem);
  } else {
    writer.Stopped(fault);
  }
  return os.str();
}

std::string SysCommitLog::Check(const std::string& log) {
  std::istringstream is(log);
  const gpu::LogCheckResult r = gpu::CheckCommitLog(is);
  if (r.ok) {
    return "";
  }
  return (r.malformed ? "not a complete commit log: " : "") + r.error;
}

}  // namespace htm::tb
