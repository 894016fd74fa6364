// SPDX-License-Identifier: Apache-2.0
//
// A block instance of a machine, driven through the block's ports only (the `.def` of
// htm/golden/ports/), whatever implements it: the golden model, the Verilated RTL, the Verilated
// Yosys netlist, or a lockstep pair of the golden model and one of those, compared every cycle
// (docs/htmsim.md, "RTL in the loop"). The machines build their blocks through this interface;
// the Verilated implementations live above the golden models (tb/, htm/tb/rtl_instance.h) and
// reach a machine through an InstanceFactory.
//
// The clocking of one cycle is the lockstep harness's: Eval(in) drives the inputs with the clock
// low and returns the outputs (it may be called again with other inputs before the edge; the
// last call's inputs are the cycle's), Tick(in) is the rising edge with the cycle's inputs.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <typeinfo>

#include "htm/golden/coverage.h"
#include "htm/golden/ports.h"

namespace htm::golden {

/// How a block instance is implemented.
enum class Impl : uint8_t {
  kGolden,          // the golden model
  kRtl,             // the Verilated RTL alone
  kNetlist,         // the Verilated Yosys netlist alone
  kRtlChecked,      // the golden model and the RTL in lockstep, compared every cycle
  kNetlistChecked,  // the golden model and the netlist in lockstep
};
inline const char* ToString(Impl i) {
  switch (i) {
    case Impl::kGolden:
      return "golden";
    case Impl::kRtl:
      return "rtl";
    case Impl::kNetlist:
      return "netlist";
    case Impl::kRtlChecked:
      return "rtl+golden";
    case Impl::kNetlistChecked:
      return "netlist+golden";
  }
  return "?";
}

/// A lockstep pair's outputs differed, or an RTL assertion failed: the run stops. what() is the
/// whole report (block, instance, cycles, the differing fields, the last cycles of the
/// instance's ports, the workload context and the command that reproduces it).
class InstanceMismatch : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class InstanceBase {
 public:
  virtual ~InstanceBase() = default;
  /// The coverage events its golden model counted (docs/coverage.md): a golden instance's and a
  /// lockstep pair's; none (nullopt) for a Verilated model alone, which has no golden model.
  virtual std::optional<Coverage> coverage() const { return std::nullopt; }
};

template <class Ports>
class Instance : public InstanceBase {
 public:
  using Params = typename Ports::Params;
  using In = typename Ports::In;
  using Out = typename Ports::Out;

  /// Two cycles of rst_ni low with every input zero.
  virtual void Reset() = 0;
  /// The outputs under this cycle's inputs `in` (the clock low).
  virtual Out Eval(const In& in) = 0;
  /// The rising edge with this cycle's inputs.
  virtual void Tick(const In& in) = 0;
  /// `cycles` cycles with every input zero (a golden model may skip them in constant time).
  virtual void Idle(uint64_t cycles) {
    const In zero{};
    for (uint64_t i = 0; i < cycles; ++i) {
      Eval(zero);
      Tick(zero);
    }
  }
};

/// The golden model as an instance.
template <class Model>
class GoldenInstance final : public Instance<typename Model::Ports> {
 public:
  using Ports = typename Model::Ports;
  using Params = typename Ports::Params;
  using In = typename Ports::In;
  using Out = typename Ports::Out;

  explicit GoldenInstance(const Params& p) : model_(p) {}
  void Reset() override { model_.Reset(); }
  Out Eval(const In& in) override { return model_.Eval(in); }
  void Tick(const In& in) override { model_.Tick(in); }
  void Idle(uint64_t cycles) override {
    if constexpr (requires { model_.Idle(cycles); }) {
      model_.Idle(cycles);
    } else {
      Instance<Ports>::Idle(cycles);
    }
  }
  const Model& model() const { return model_; }
  std::optional<Coverage> coverage() const override {
    if constexpr (requires { model_.coverage(); }) {
      return model_.coverage();
    } else {
      return std::nullopt;
    }
  }

 private:
  Model model_;
};

/// What a machine tells an instance it builds.
struct InstanceInfo {
  std::string block;  // the RTL top, e.g. "htm_cat"
  std::string name;   // the instance in the machine, e.g. "core3.cat"
  /// The machine's cycle now (reports name it beside the instance's own cycle).
  std::function<uint64_t()> machine_cycle;
  /// What the instance is doing for the workload now: warp, transaction, address (reports).
  std::function<std::string()> context;
  /// The command that reproduces the run (reports add the waves options).
  std::string repro;
  /// Write the instance's waves to this FST file ("" none), with a GTKWave view beside it.
  std::string waves;
};

/// Builds the instances that are not golden models. Implemented by the library of Verilated
/// models (tb/), which the golden models and the machines do not depend on.
class InstanceFactory {
 public:
  virtual ~InstanceFactory() = default;
  /// An instance of `info.block` with parameters `p`, implemented as `impl` (not kGolden).
  /// Throws std::invalid_argument when no named configuration of the block has these parameters
  /// (or its netlist is not built), naming the block's configurations.
  template <class Ports>
  std::unique_ptr<Instance<Ports>> Make(Impl impl, const typename Ports::Params& p,
                                        const InstanceInfo& info) const {
    std::unique_ptr<InstanceBase> any = MakeAny(impl, typeid(Ports), &p, info);
    auto* typed = dynamic_cast<Instance<Ports>*>(any.get());
    if (typed == nullptr) {
      throw std::logic_error("InstanceFactory: " + info.block + " built with other ports");
    }
    any.release();
    return std::unique_ptr<Instance<Ports>>(typed);
  }
  /// Empty when `block` has an implementation `impl` with parameters `p` (`ports` the type of
  /// its Ports), else the message Make would throw.
  virtual std::string Check(Impl impl, const std::string& block, const std::type_info& ports,
                            const void* params) const = 0;

 protected:
  virtual std::unique_ptr<InstanceBase> MakeAny(Impl impl, const std::type_info& ports,
                                                const void* params,
                                                const InstanceInfo& info) const = 0;
};

}  // namespace htm::golden
