// SPDX-License-Identifier: Apache-2.0
//
// Directed tests of htm_sys_core (docs/htm_sys_core.md) in lockstep with its golden model, in
// the small, one and default configurations: the scenarios of htm/tb/sys_core_env.h, which the
// model's own tests (tests/golden/sys_core_model_test.cc) run on the model alone, driven by the
// same scripted environment that answers as the partitions and the commit-id allocator do. A
// batch's setup timing and its draws, every workload's log words, a load step's and a store
// step's cycles, an empty step, the walker's message order for one lane, the lanes' pipelining
// (lane 1's Allocs held while lane 0 fills), the draw unit's idle cycle between slots, the
// AllocFail retry after AllocRetry cycles, the AllocFail event and the log records, a failed
// validation and the lane's second try, several batches under back-pressure and slow grants,
// replies that fit nothing, the logs' capacity, errors, and start while running. Every output
// is compared every cycle; the scenarios' expected cycles, messages and records are checked on
// top.
#include <string>

#include <gtest/gtest.h>

#include "Vhtm_sys_core__default.h"
#include "Vhtm_sys_core__one.h"
#include "Vhtm_sys_core__small.h"

#include "htm/configs/htm_sys_core.h"
#include "htm/enums.h"
#include "htm/golden/sys_core_model.h"
#include "htm/tb/directed.h"
#include "htm/tb/lockstep.h"
#include "htm/tb/sys_core_env.h"

namespace htm::tb {
namespace {

using golden::SysCoreModel;
using golden::SysCoreParams;
using golden::SysCorePorts;

// Makes environments around a lockstep pair of the RTL configuration `config` (Verilated as
// Top) and the golden model.
template <class Top>
class RtlTarget {
 public:
  using Pair = Lockstep<SysCorePorts, Top, SysCoreModel>;
  RtlTarget(const char* config, const SysCoreParams& p) : config_(config), p_(p) {}
  const SysCoreParams& params() const { return p_; }
  SysCoreEnv<Pair> Make(const SysCoreRun& run) const {
    return SysCoreEnv<Pair>(p_, run, DirectedOptions("htm_sys_core", config_));
  }

 private:
  const char* config_;
  SysCoreParams p_;
};

// Runs f(target) in every configuration for which want(params) holds.
template <class F, class W>
void InConfigs(F f, W want) {
  namespace c = configs::htm_sys_core;
  if (want(c::kSmall)) {
    SCOPED_TRACE("htm_sys_core/small");
    f(RtlTarget<Vhtm_sys_core__small>("small", c::kSmall));
  }
  if (want(c::kOne)) {
    SCOPED_TRACE("htm_sys_core/one");
    f(RtlTarget<Vhtm_sys_core__one>("one", c::kOne));
  }
  if (want(c::kDefault)) {
    SCOPED_TRACE("htm_sys_core/default");
    f(RtlTarget<Vhtm_sys_core__default>("default", c::kDefault));
  }
}
template <class F>
void InEveryConfig(F f) {
  InConfigs(f, [](const SysCoreParams&) { return true; });
}

TEST(SysCoreDirected, SetupOfABatchTakesTheDrawsAndFiveCycles) {
  InEveryConfig([](const auto& t) { SysCoreSetupOfABatchTakesTheDrawsAndFiveCycles(t); });
}

TEST(SysCoreDirected, EveryWorkloadsLogWordsAreItsSteps) {
  InEveryConfig([](const auto& t) { SysCoreEveryWorkloadsLogWordsAreItsSteps(t); });
}

TEST(SysCoreDirected, ALoadStepAndAStoreStepTakeTheirCycles) {
  InEveryConfig([](const auto& t) { SysCoreALoadStepAndAStoreStepTakeTheirCycles(t); });
}

TEST(SysCoreDirected, AnEmptyStepTakesOneCycle) {
  InEveryConfig([](const auto& t) { SysCoreAnEmptyStepTakesOneCycle(t); });
}

TEST(SysCoreDirected, TheWalkerSendsOneLanesMessagesInOrder) {
  // small: two partitions in 4-word stripes (the words of one lane go to both); one: a single
  // partition; default: two partitions in 64-word stripes (every word in partition 0, Skip to
  // partition 1).
  InEveryConfig([](const auto& t) { SysCoreTheWalkerSendsOneLanesMessagesInOrder(t); });
}

TEST(SysCoreDirected, LanesArePipelinedAndTheFillEngineGoesFirst) {
  InConfigs([](const auto& t) { SysCoreLanesArePipelinedAndTheFillEngineGoesFirst(t); },
            [](const SysCoreParams& p) { return p.warp_size >= 2; });
}

TEST(SysCoreDirected, TheDrawUnitIdlesACycleBetweenSlots) {
  InConfigs([](const auto& t) { SysCoreTheDrawUnitIdlesACycleBetweenSlots(t); },
            [](const SysCoreParams& p) { return p.num_warps >= 2; });
}

TEST(SysCoreDirected, AnAllocFailIsRetriedAfterAllocRetryCycles) {
  // AllocRetry 3 (small), 1 (one) and 8 (default).
  InEveryConfig([](const auto& t) { SysCoreAnAllocFailIsRetriedAfterAllocRetryCycles(t); });
}

TEST(SysCoreDirected, TheAllocFailEventAndTheLogStreams) {
  InEveryConfig([](const auto& t) { SysCoreTheAllocFailEventAndTheLogStreams(t); });
}

TEST(SysCoreDirected, AFailedValidationAbortsTheLaneAndRunsItAgain) {
  InEveryConfig([](const auto& t) { SysCoreAFailedValidationAbortsTheLaneAndRunsItAgain(t); });
}

TEST(SysCoreDirected, ManyBatchesUnderBackPressure) {
  InEveryConfig([](const auto& t) { SysCoreManyBatchesUnderBackPressure(t); });
}

TEST(SysCoreDirected, RepliesThatFitNothingAreDroppedDuringARun) {
  InEveryConfig([](const auto& t) { SysCoreRepliesThatFitNothingAreDroppedDuringARun(t); });
}

TEST(SysCoreDirected, ErrorsAreSticky) {
  InEveryConfig([](const auto& t) { SysCoreErrorsAreSticky(t); });
}

TEST(SysCoreDirected, ALoadStepBeyondTheReadLogSetsErr) {
  // EB-P with R = MaxReads + 1 reads and no other step: its last read step finds the log full.
  InEveryConfig([](const auto& t) {
    SysCoreALoadStepBeyondTheReadLogSetsErr(t, SysCoreRun{.wl = SysWl::kEb,
                                                          .threads = 1,
                                                          .objlog2 = 3,
                                                          .seed = 4,
                                                          .reads = t.params().max_reads + 1});
  });
}

TEST(SysCoreDirected, AStoreStepBeyondTheWriteLogSetsErr) {
  // EB-P with W = MaxWrites + 1 (small and default; in one, MaxReads 3 < MaxWrites 4 and every
  // EB-P store follows a load, so the read log fills first).
  InConfigs(
      [](const auto& t) {
        SysCoreAStoreStepBeyondTheWriteLogSetsErr(t,
                                                  SysCoreRun{.wl = SysWl::kEb,
                                                             .threads = 1,
                                                             .objlog2 = 3,
                                                             .seed = 4,
                                                             .writes = t.params().max_writes + 1});
      },
      [](const SysCoreParams& p) { return p.max_writes < p.max_reads; });
}

TEST(SysCoreDirected, StartIsIgnoredWhileRunning) {
  InEveryConfig([](const auto& t) { SysCoreStartIsIgnoredWhileRunning(t); });
}

}  // namespace
}  // namespace htm::tb
