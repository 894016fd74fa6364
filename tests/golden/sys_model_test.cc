// SPDX-License-Identifier: Apache-2.0
//
// Model-only tests of htm_sys's golden model (SysModel: the subsystem's blocks under
// htm_sys_run's model), driven from its ports as a host drives the RTL: a start with a
// configuration, then cycles until done_o. ATM-P, HT-P and EB-P run in the fabric
// configurations of sys_core_model_test.cc and pass the run control's own check (check_ok_o);
// the final memory, read from the partition models, passes the workload's Check(); the commit
// counter equals the threads, and the counters of commits and aborts equal the decisions on the
// commit-log streams; the commit log assembled from those streams (htm/tb/sys_commit_log.h)
// passes htmsim check's checker, and fails it when a record is corrupted or a decision lost; a
// refused configuration ends at once with its code.
#include "htm/golden/sys_model.h"

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "htm/configs/htm_sys_part.h"
#include "htm/tb/sys_commit_log.h"
#include "htm/tb/sys_config_inputs.h"
#include "htm/workloads/gpu/proto.h"
#include "sys_test_configs.h"

namespace htm::golden {
namespace {

namespace proto = ::htm::gpu::proto;
using namespace systest;  // NOLINT(build/namespaces): the shared configurations

// The configurations of sys_core_model_test.cc (sys_test_configs.h) as htm_sys's parameters.
SysParams SysDefault() {
  return SysParamsOf(FabricDefault());
}
SysParams SysSmall() {
  return SysParamsOf(FabricSmall());
}
SysParams SysOne() {
  return SysParamsOf(FabricOne());
}

SysIn StartOf(const proto::Params& w) {
  SysIn in;
  in.start = 1;
  tb::SetConfigInputs(in, w);
  return in;
}

// What a run gave at its ports.
struct Run {
  uint64_t cycles = 0;        // from the start to done_o
  std::vector<uint64_t> ctr;  // ctr_o for ctr_sel_i 0..7 at done_o
  uint64_t log_commits = 0, log_aborts = 0;
  std::vector<int> thread_commits;  // per thread: commit decisions on the log streams
  SysOut out;                       // the ports at done_o
};

// Starts a run and steps until done_o (at most `budget` cycles); `log` takes the commit-log port
// of every cycle after the start, through `tamper` when there is one.
Run RunToDone(SysModel& m, const SysIn& start, uint64_t budget, tb::SysCommitLog& log,
              const std::function<void(SysOut&)>& tamper = {}) {
  Run r;
  r.thread_commits.assign(start.cfg_threads, 0);
  SysIn in = start;
  m.Tick(in);
  in.start = 0;
  for (r.cycles = 1; r.cycles <= budget; ++r.cycles) {
    const SysOut o = m.Eval(in);
    EXPECT_EQ(o.err, 0U) << "err_o at cycle " << r.cycles;
    SysOut seen = o;
    if (tamper) {
      tamper(seen);
    }
    log.Record(seen);
    for (int c = 0; c < m.params().num_cores; ++c) {
      if (((o.logd_valid >> c) & 1U) == 0) {
        continue;
      }
      if (o.logd_commit[c] != 0) {
        ++r.log_commits;
        if (o.logd_thread[c] < r.thread_commits.size()) {
          ++r.thread_commits[o.logd_thread[c]];
        }
      } else {
        ++r.log_aborts;
      }
    }
    if (o.done != 0) {
      r.out = o;
      for (uint64_t sel = 0; sel < 8; ++sel) {
        in.ctr_sel = sel;
        r.ctr.push_back(m.Eval(in).ctr);
      }
      return r;
    }
    m.Tick(in);
  }
  ADD_FAILURE() << "no done_o within " << budget << " cycles";
  return r;
}

// A run of `w` and its checks; returns the commit ids that wrapped around during it.
uint64_t RunWorkload(SysModel& m, const proto::Params& w, const char* config) {
  const auto wl = proto::Make(w);
  const uint64_t budget = 200000 + 4000 * static_cast<uint64_t>(w.threads);
  tb::SysCommitLog log(m.params(), std::string("htm_sys/") + config);
  log.Begin(w);
  const Run r = RunToDone(m, StartOf(w), budget, log);
  if (r.ctr.empty()) {
    return 0;
  }
  std::printf(
      "%-7s %-5s T %4d obj 2^%d R%d W%d C%d seed %u: %6llu cycles (%6llu run), %4llu "
      "commits, %4llu aborts, %4llu alloc fails\n",
      config, proto::ToString(w.kind), w.threads, w.objects_log2, w.reads, w.writes, w.cold, w.seed,
      static_cast<unsigned long long>(r.cycles), static_cast<unsigned long long>(r.ctr[0]),
      static_cast<unsigned long long>(r.ctr[1]), static_cast<unsigned long long>(r.ctr[2]),
      static_cast<unsigned long long>(r.ctr[3]));
  EXPECT_EQ(r.out.cfg_err, 0U);
  EXPECT_EQ(r.out.busy, 0U);
  EXPECT_EQ(r.out.check_ok, 1U) << "check code " << r.out.check_code << " index "
                                << r.out.check_idx;
  EXPECT_EQ(r.out.check_code, 0U);
  const std::vector<uint32_t> mem = m.ReadMemory(wl->Init().size());
  EXPECT_EQ(wl->Check(mem), "");
  EXPECT_EQ(r.ctr[1], static_cast<uint64_t>(w.threads));
  EXPECT_EQ(r.ctr[1], r.log_commits);
  EXPECT_EQ(r.ctr[2], r.log_aborts);
  EXPECT_EQ(r.ctr[7], 0U);
  EXPECT_GT(r.ctr[0], 0U);
  EXPECT_LT(r.ctr[0], r.cycles);
  EXPECT_GT(r.ctr[4], 0U);  // loads
  EXPECT_GT(r.ctr[5], 0U);  // commit-unit messages
  for (size_t t = 0; t < r.thread_commits.size(); ++t) {
    EXPECT_EQ(r.thread_commits[t], 1) << "thread " << t;
  }
  // The commit log: every committed transaction in commit-id order, accepted by htmsim check.
  EXPECT_EQ(tb::SysCommitLog::Check(log.Log(mem)), "") << config << " " << wl->Describe();
  EXPECT_EQ(log.committed(), static_cast<uint64_t>(w.threads));
  EXPECT_EQ(log.aborted(), r.log_aborts);
  return log.wraps();
}

struct Case {
  const char* name;
  SysParams params;
  std::vector<proto::Params> runs;
};

std::vector<Case> Cases() {
  using K = proto::Kind;
  return {
      {"default",
       SysDefault(),
       {proto::ParamsAt(K::kAtm, gpu::Scale::kSmall, 1),
        proto::ParamsAt(K::kHt, gpu::Scale::kSmall, 1),
        proto::ParamsAt(K::kEb, gpu::Scale::kSmall, 1), Wl(K::kAtm, 100, 4, 2),
        Wl(K::kHt, 77, 2, 4), Wl(K::kEb, 90, 4, 6, 0, 2, 2), Wl(K::kEb, 61, 5, 7, 4, 0, 3)}},
      {"small",
       SysSmall(),
       {Wl(K::kAtm, 100, 4, 1), Wl(K::kAtm, 37, 1, 2), Wl(K::kHt, 60, 3, 3), Wl(K::kHt, 21, 1, 4),
        Wl(K::kEb, 50, 4, 5, 2, 1, 1), Wl(K::kEb, 30, 2, 6, 0, 2, 2)}},
      {"one",
       SysOne(),
       {Wl(K::kAtm, 20, 2, 1), Wl(K::kAtm, 9, 1, 2), Wl(K::kHt, 20, 2, 3), Wl(K::kHt, 7, 1, 4),
        Wl(K::kEb, 12, 2, 5, 1, 1, 1), Wl(K::kEb, 8, 3, 8, 0, 0, 2)}},
  };
}

TEST(SysModel, PrototypeWorkloadsRunFromThePortsInEveryConfiguration) {
  for (const Case& k : Cases()) {
    SCOPED_TRACE(k.name);
    SysModel m(k.params);
    uint64_t wraps = 0;
    for (const proto::Params& w : k.runs) {
      SCOPED_TRACE(std::string(proto::ToString(w.kind)) + " seed " + std::to_string(w.seed));
      wraps += RunWorkload(m, w, k.name);
      if (testing::Test::HasFailure()) {
        return;
      }
    }
    EXPECT_GT(wraps, 0U) << "no commit id wrapped around: the log's unwrapping is not exercised";
  }
}

// The check fails when the collected records are not the run's: a read's or a write's value
// changed, or a decision lost.
TEST(SysModel, TheCommitLogCheckFailsOnACorruptedRecordOrALostDecision) {
  const proto::Params w = Wl(proto::Kind::kAtm, 20, 2, 1);
  const auto wl = proto::Make(w);
  // `tamper` changes the first port record it is given a chance to (returns true once it has).
  const auto verdict = [&](const std::function<bool(SysOut&)>& tamper) {
    SysModel m(SysOne());
    tb::SysCommitLog log(m.params(), "htm_sys/one");
    log.Begin(w);
    bool done = false;
    RunToDone(m, StartOf(w), 400000, log, [&](SysOut& o) {
      if (!done && tamper) {
        done = tamper(o);
      }
    });
    EXPECT_TRUE(done || !tamper) << "nothing to tamper with";
    return tb::SysCommitLog::Check(log.Log(m.ReadMemory(wl->Init().size())));
  };
  EXPECT_EQ(verdict({}), "");
  const auto value_of = [](bool write) {
    return [write](SysOut& o) {
      if ((o.logw_valid & 1U) == 0 || (o.logw_write[0] != 0) != write) {
        return false;
      }
      o.logw_data[0] ^= 4;
      return true;
    };
  };
  std::string v = verdict(value_of(false));
  EXPECT_NE(v.find("but in the serial order it holds"), std::string::npos) << v;
  v = verdict(value_of(true));
  EXPECT_NE(v, "");
  v = verdict([](SysOut& o) {
    if ((o.logd_valid & 1U) == 0) {
      return false;
    }
    o.logd_valid = 0;
    return true;
  });
  EXPECT_NE(v.find("has records and no decision"), std::string::npos) << v;
}

TEST(SysModel, ARefusedConfigurationEndsAtOnceWithItsCode) {
  SysModel m(SysSmall());
  // An unknown workload (code 1), then no threads (code 2), then a run that is taken.
  SysIn in = StartOf(Wl(proto::Kind::kAtm, 10, 2, 1));
  in.cfg_wl = 3;
  m.Tick(in);
  in.start = 0;
  SysOut o = m.Eval(in);
  EXPECT_EQ(o.done, 1U);
  EXPECT_EQ(o.busy, 0U);
  EXPECT_EQ(o.cfg_err, 1U);
  EXPECT_EQ(o.cfg_err_code, 1U);
  EXPECT_EQ(o.check_code, 0U);
  for (uint64_t sel = 0; sel < 8; ++sel) {
    in.ctr_sel = sel;
    EXPECT_EQ(m.Eval(in).ctr, 0U) << "counter " << sel;
  }
  in = StartOf(Wl(proto::Kind::kAtm, 10, 2, 1));
  in.cfg_threads = 0;
  m.Tick(in);
  in.start = 0;
  o = m.Eval(in);
  EXPECT_EQ(o.done, 1U);
  EXPECT_EQ(o.cfg_err, 1U);
  EXPECT_EQ(o.cfg_err_code, 2U);
  // More memory than 2^AddrW words (code 4): HT-P with 2^8 buckets needs 768 + 2T > 512.
  in = StartOf(Wl(proto::Kind::kHt, 10, 8, 1));
  m.Tick(in);
  in.start = 0;
  o = m.Eval(in);
  EXPECT_EQ(o.cfg_err, 1U);
  EXPECT_EQ(o.cfg_err_code, 4U);
  // The same model then runs a configuration it accepts.
  (void)RunWorkload(m, Wl(proto::Kind::kAtm, 10, 2, 1), "small");
}

TEST(SysModel, BadParametersAreRejected) {
  SysParams p = SysSmall();
  p.num_parts = 3;
  EXPECT_THROW(SysModel{p}, std::invalid_argument);
  p = SysSmall();
  p.xbar_fifo_depth = 0;
  EXPECT_THROW(SysModel{p}, std::invalid_argument);
}

}  // namespace
}  // namespace htm::golden
