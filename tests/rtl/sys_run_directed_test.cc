// SPDX-License-Identifier: Apache-2.0
//
// Directed tests of htm_sys_run in lockstep with its golden model (docs/htm_sys.md,
// "htm_sys_run"), in the default, small and one configurations: the workloads' initial memory
// and a passing check, the check's code and index for each kind of corruption, the refusals,
// a refusal then an accepted run, the timing of Seed, Init, Start and the check's states, the
// counters. The scenarios are those of tb/include/htm/tb/benches/sys_run_cases.h, which the
// model's own test runs as well; here every output is compared with the model's every cycle as
// well. Each scenario runs on the configuration's parameters (configs::htm_sys_run::kX):
// workloads a configuration refuses are left out, refusals are the rows written for it.
#include <gtest/gtest.h>

#include "Vhtm_sys_run__default.h"
#include "Vhtm_sys_run__one.h"
#include "Vhtm_sys_run__small.h"

#include "htm/configs/htm_sys_run.h"
#include "htm/golden/sys_run_model.h"
#include "htm/tb/benches/sys_run_cases.h"
#include "htm/tb/directed.h"
#include "htm/tb/lockstep.h"

namespace htm::tb {
namespace {

using golden::SysRunIn;
using golden::SysRunOut;
using golden::SysRunParams;

// A lockstep pair as a scenario's device.
template <class Top>
class LockstepDev {
 public:
  LockstepDev(const SysRunParams& p, const char* config)
      : ls_(p, DirectedOptions("htm_sys_run", config)) {}
  SysRunOut Cycle(const SysRunIn& in) { return DirectedCycle(ls_, in); }
  const golden::SysRunModel& model() const { return ls_.model(); }

 private:
  Lockstep<golden::SysRunPorts, Top, golden::SysRunModel> ls_;
};

// Runs `run.template operator()<Dev>(params, name)` on the RTL of every configuration, Dev the
// configuration's lockstep pair.
template <class F>
void OnEveryConfig(const F& run) {
  run.template operator()<LockstepDev<Vhtm_sys_run__default>>(configs::htm_sys_run::kDefault,
                                                              "default");
  run.template operator()<LockstepDev<Vhtm_sys_run__small>>(configs::htm_sys_run::kSmall, "small");
  run.template operator()<LockstepDev<Vhtm_sys_run__one>>(configs::htm_sys_run::kOne, "one");
}

TEST(SysRunDirected, InitAndPassingCheck) {
  OnEveryConfig([]<class Dev>(const SysRunParams& p, const char* config) {
    sys_run::InitAndPassingCheck<Dev>(p, config);
  });
}

TEST(SysRunDirected, CheckFailures) {
  OnEveryConfig([]<class Dev>(const SysRunParams& p, const char* config) {
    sys_run::CheckFailures<Dev>(p, config);
  });
}

TEST(SysRunDirected, Refusals) {
  OnEveryConfig([]<class Dev>(const SysRunParams& p, const char* config) {
    sys_run::Refusals<Dev>(p, config);
  });
}

TEST(SysRunDirected, RefusedThenAccepted) {
  OnEveryConfig([]<class Dev>(const SysRunParams& p, const char* config) {
    sys_run::RefusedThenAccepted<Dev>(p, config);
  });
}

TEST(SysRunDirected, SeedInitStartTiming) {
  OnEveryConfig([]<class Dev>(const SysRunParams& p, const char* config) {
    sys_run::SeedInitStartTiming<Dev>(p, config);
  });
}

TEST(SysRunDirected, CheckTimingSums) {
  OnEveryConfig([]<class Dev>(const SysRunParams& p, const char* config) {
    sys_run::CheckTimingSums<Dev>(p, config);
  });
}

TEST(SysRunDirected, CheckTimingHashTable) {
  OnEveryConfig([]<class Dev>(const SysRunParams& p, const char* config) {
    sys_run::CheckTimingHashTable<Dev>(p, config);
  });
}

TEST(SysRunDirected, CheckTimingLoopedList) {
  OnEveryConfig([]<class Dev>(const SysRunParams& p, const char* config) {
    sys_run::CheckTimingLoopedList<Dev>(p, config);
  });
}

TEST(SysRunDirected, Counters) {
  OnEveryConfig([]<class Dev>(const SysRunParams& p, const char* config) {
    sys_run::Counters<Dev>(p, config);
  });
}

}  // namespace
}  // namespace htm::tb
