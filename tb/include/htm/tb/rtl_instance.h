// SPDX-License-Identifier: Apache-2.0
//
// The Verilated implementations of a block instance (htm/golden/instance.h): the RTL or the
// Yosys netlist alone (RtlInstance), or beside its golden model in lockstep, compared every
// cycle (CheckedInstance), as a machine uses them with RTL in the loop (docs/htmsim.md, "RTL in
// the loop"). Each instance has its own VerilatedContext; its waves, when asked for, go to its own
// FST with a GTKWave view (two time steps per cycle of the instance, as in the lockstep tests).
//
// A lockstep pair's first mismatch, or an RTL assertion, throws golden::InstanceMismatch with the
// report: the block and the instance, the machine's cycle and the instance's, every differing
// field, the instance's last kHistory cycles (inputs | RTL outputs | model outputs), what the
// instance was doing for the workload, and the command that reproduces the run with its waves.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <utility>

#include "verilated.h"
#include "verilated_fst_c.h"

#include "htm/golden/instance.h"
#include "htm/tb/report.h"

namespace htm::tb {

/// The Verilated model of a block (RTL or netlist) driven as an instance. Alone it has no
/// golden model, so no coverage (coverage() is nullopt); beside one, see CheckedInstance.
template <class Ports, class Top>
class RtlInstance final : public golden::Instance<Ports> {
 public:
  using Params = typename Ports::Params;
  using In = typename Ports::In;
  using Out = typename Ports::Out;

  RtlInstance(const Params& p, golden::InstanceInfo info, bool netlist, uint64_t seed = 1)
      : p_(p), info_(std::move(info)), netlist_(netlist) {
    ctx_ = std::make_unique<VerilatedContext>();
    ctx_->fatalOnError(false);  // an assertion failure sets gotError(); reported as a mismatch
    ctx_->randReset(2);         // randomise uninitialised state (the models use unique X)
    ctx_->randSeed(static_cast<int>(seed & 0x7fffffff));
    ctx_->traceEverOn(!info_.waves.empty());
    top_ = std::make_unique<Top>(ctx_.get(), "TOP");
    if (!info_.waves.empty()) {
      fst_ = std::make_unique<VerilatedFstC>();
      top_->trace(fst_.get(), 99);
      fst_->open(info_.waves.c_str());
      WriteGtkwView<Ports>(info_.waves, info_.block, p_);
    }
    Reset();
  }
  ~RtlInstance() override {
    Verilated::threadContextp(ctx_.get());
    if (fst_) {
      fst_->close();
    }
    top_->final();
    top_.reset();  // (its scopes leave the thread's context: this one, set above)
  }
  RtlInstance(const RtlInstance&) = delete;
  RtlInstance& operator=(const RtlInstance&) = delete;

  void Reset() override {
    Verilated::threadContextp(ctx_.get());
    const In zero{};
    Ports::Drive(p_, *top_, zero);
    top_->rst_ni = 0;
    for (int i = 0; i < 2; ++i) {
      Half(0);
      Half(1);
    }
    top_->rst_ni = 1;
    settled_ = false;
  }
  // A model whose inputs and state have not changed since its last evaluation would compute the
  // same outputs again: Eval with the inputs of the previous Eval (no clock edge between) returns
  // that Eval's outputs, and Tick with them goes straight to the rising edge. The machine asks a
  // block for its outputs several times a cycle, often with the same inputs.
  Out Eval(const In& in) override {
    if (settled_ && in == last_in_) {
      return last_out_;
    }
    Verilated::threadContextp(ctx_.get());
    Ports::Drive(p_, *top_, in);
    top_->clk_i = 0;
    top_->eval();
    last_in_ = in;
    last_out_ = Ports::Sample(p_, *top_);
    settled_ = true;
    return last_out_;
  }
  void Tick(const In& in) override {
    Verilated::threadContextp(ctx_.get());
    if (!settled_ || !(in == last_in_)) {
      Ports::Drive(p_, *top_, in);
      top_->clk_i = 0;
      top_->eval();
    }
    settled_ = false;
    if (fst_) {
      fst_->dump(time_);
    }
    time_ += 5;
    Half(1);
    ++cycle_;
    if (ctx_->gotError()) {
      throw golden::InstanceMismatch(Header("RTL assertion failed at the rising edge") +
                                     "context: " + Context() + "\n" + Repro());
    }
  }

  uint64_t cycle() const { return cycle_; }
  const golden::InstanceInfo& info() const { return info_; }
  const Params& params() const { return p_; }
  bool netlist() const { return netlist_; }
  /// "<block> (RTL|Yosys netlist) instance <name>, machine cycle m, instance cycle c: <what>\n"
  std::string Header(const std::string& what) const {
    std::ostringstream os;
    os << "RTL MISMATCH: " << info_.block << (netlist_ ? " (Yosys netlist)" : " (RTL)")
       << " instance " << info_.name << ", machine cycle "
       << (info_.machine_cycle ? info_.machine_cycle() : 0) << ", instance cycle " << cycle_ << ": "
       << what << "\n";
    return os.str();
  }
  std::string Context() const { return info_.context ? info_.context() : "(none given)"; }
  std::string Repro() const {
    return "reproduce with the instance's waves:\n  " + info_.repro + " --waves " + info_.name +
           ".fst --waves-instance " + info_.name + "\n";
  }

 private:
  void Half(int clk) {
    top_->clk_i = clk;
    top_->eval();
    if (fst_) {
      fst_->dump(time_);
    }
    time_ += 5;
  }

  Params p_;
  golden::InstanceInfo info_;
  bool netlist_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Top> top_;
  std::unique_ptr<VerilatedFstC> fst_;
  uint64_t time_ = 0, cycle_ = 0;
  bool settled_ = false;  // evaluated with last_in_ at clk 0 since the last edge
  In last_in_{};
  Out last_out_{};
};

/// The golden model and the Verilated model of a block in lockstep: every Eval compares the
/// outputs field by field (each under its qualifier); the RTL's outputs go on into the machine.
template <class Model, class Top>
class CheckedInstance final : public golden::Instance<typename Model::Ports> {
 public:
  using Ports = typename Model::Ports;
  using Params = typename Ports::Params;
  using In = typename Ports::In;
  using Out = typename Ports::Out;
  static constexpr int kHistory = 32;

  CheckedInstance(const Params& p, golden::InstanceInfo info, bool netlist)
      : model_(p), rtl_(p, std::move(info), netlist) {}

  void Reset() override {
    rtl_.Reset();
    model_.Reset();
    history_[rtl_.cycle() % kHistory] = Record{rtl_.cycle(), {}, {}, {}, true};
  }
  Out Eval(const In& in) override {
    const Out dut = rtl_.Eval(in);
    const Out ref = model_.Eval(in);
    history_[rtl_.cycle() % kHistory] = Record{rtl_.cycle(), in, dut, ref, false};
    if (const std::string diff = DiffOutputs<Ports>(rtl_.params(), dut, ref); !diff.empty()) {
      throw golden::InstanceMismatch(Report("output mismatch", diff));
    }
    return dut;
  }
  void Tick(const In& in) override {
    try {
      rtl_.Tick(in);
    } catch (const golden::InstanceMismatch&) {
      throw golden::InstanceMismatch(
          Report("RTL assertion failed at the rising edge (see the message above)", ""));
    }
    model_.Tick(in);
  }
  /// The golden model's coverage (the RTL follows the same inputs, cycle for cycle).
  std::optional<golden::Coverage> coverage() const override {
    if constexpr (requires { model_.coverage(); }) {
      return model_.coverage();
    } else {
      return std::nullopt;
    }
  }

 private:
  using Record = CycleRecord<Ports>;

  std::string Report(const std::string& what, const std::string& diff) const {
    std::ostringstream os;
    os << rtl_.Header(what) << diff << "context: " << rtl_.Context() << "\n";
    os << "the instance's last cycles (inputs | RTL outputs | model outputs):\n"
       << FormatHistory<Ports>(rtl_.params(), history_, rtl_.cycle());
    os << rtl_.Repro();
    return os.str();
  }

  Model model_;
  RtlInstance<Ports, Top> rtl_;
  std::array<Record, kHistory> history_{};
};

}  // namespace htm::tb
