// SPDX-License-Identifier: Apache-2.0
//
// The generic lockstep engine: drives a Verilated RTL model and its golden model with the same
// inputs every cycle and compares every output field. On the first mismatch it produces a report
// with the cycle, every differing field in hex, the previous kHistory cycles, and the command that
// reproduces the failure with waves.
//
// Clocking of one cycle (waves: two time steps of 5 units per cycle, clock low then high):
//   1. drive the inputs with the clock low, evaluate the RTL (combinational outputs settle);
//   2. sample the RTL outputs, evaluate the model (Eval is const), compare;
//   3. raise the clock (RTL state updates, assertions are checked), model.Tick(inputs).
// Assertion failures inside the RTL (SVA under --assert) fail the step at that cycle.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <sstream>
#include <string>
#include <utility>

#include "verilated.h"
#include "verilated_fst_c.h"

#include "htm/tb/report.h"

namespace htm::tb {

/// What a lockstep run needs to know besides its block: names, seed, waves.
struct RunOptions {
  std::string block;        // RTL top, e.g. "htm_sig"
  std::string config;       // named configuration, e.g. "default"
  bool netlist = false;     // the Yosys netlist instead of the RTL
  uint64_t seed = 1;        // stimulus seed (and Verilator's randReset seed)
  uint64_t cycles = 10000;  // cycles of random stimulus
  std::string waves;        // FST path; empty: no waves
  std::string repro;        // reproduce command printed on failure (without HTM_WAVES)
};

template <class Ports, class Top, class Model>
class Lockstep {
 public:
  using Params = typename Ports::Params;
  using In = typename Ports::In;
  using Out = typename Ports::Out;
  static constexpr int kHistory = 32;

  Lockstep(const Params& p, const RunOptions& opt) : p_(p), opt_(opt), model_(p) {
    ctx_ = std::make_unique<VerilatedContext>();
    ctx_->fatalOnError(false);  // an SVA failure sets gotError(); the test reports it
    ctx_->randReset(2);         // randomise uninitialised state (with --x-initial unique)
    ctx_->randSeed(static_cast<int>(opt.seed & 0x7fffffff));
    ctx_->traceEverOn(!opt.waves.empty());
    top_ = std::make_unique<Top>(ctx_.get(), "TOP");
    if (!opt.waves.empty()) {
      fst_ = std::make_unique<VerilatedFstC>();
      top_->trace(fst_.get(), 99);
      fst_->open(opt.waves.c_str());
      if (!fst_->isOpen()) {
        error_ = "cannot open waves file " + opt.waves;
      }
      WriteGtkwView<Ports>(opt.waves, opt.block, p_);
    }
    Reset();
  }

  ~Lockstep() {
    if (fst_) {
      fst_->close();
    }
    // Verilator's runtime tears a model's scopes down through the thread's current context
    // (Verilated::threadContextp()), which is the last context created, not the model's: with
    // two pairs alive, destroying them in reverse order made Verilator 5.006 erase the first
    // model's scopes from the second's destroyed context (a use after free that hung in
    // VerilatedContextImp::scopeErase). Make this pair's context current, and destroy the model
    // before its context.
    Verilated::threadContextp(ctx_.get());
    top_->final();
    top_.reset();
  }
  Lockstep(const Lockstep&) = delete;
  Lockstep& operator=(const Lockstep&) = delete;

  /// Holds rst_ni low for two cycles with all inputs zero, then releases it; resets the model.
  void Reset() {
    In zero{};
    Ports::Drive(p_, *top_, zero);
    top_->rst_ni = 0;
    for (int i = 0; i < 2; ++i) {
      HalfCycle(0);
      HalfCycle(1);
    }
    top_->rst_ni = 1;
    model_.Reset();
    history_[cycle_ % kHistory] = Record{cycle_, zero, {}, {}, true};
    ++cycle_;
  }

  /// One cycle; false on the first mismatch, an assertion failure or bad stimulus.
  bool Step(const In& in) {
    if (!error_.empty()) {
      return false;
    }
    if (std::string bad = CheckInputWidths(in); !bad.empty()) {
      error_ = "stimulus error at cycle " + std::to_string(cycle_) + ": " + bad;
      return false;
    }
    Ports::Drive(p_, *top_, in);
    HalfCycle(0);
    const Out dut = Ports::Sample(p_, *top_);
    const Out ref = model_.Eval(in);
    Record& rec = history_[cycle_ % kHistory];
    rec = Record{cycle_, in, dut, ref, false};
    last_out_ = ref;
    const std::string diff = DiffOutputs<Ports>(p_, dut, ref);
    if (!diff.empty()) {
      error_ = MismatchReport("output mismatch", diff);
      return false;
    }
    HalfCycle(1);
    if (ctx_->gotError()) {
      error_ =
          MismatchReport("RTL assertion failed at the rising edge (see the message above)", "");
      return false;
    }
    model_.Tick(in);
    ++cycle_;
    return true;
  }

  const std::string& error() const { return error_; }
  /// The outputs of the last stepped cycle (the model's: equal to the RTL's where compared).
  const Out& last_out() const { return last_out_; }
  uint64_t cycle() const { return cycle_; }
  const Model& model() const { return model_; }
  Top& top() { return *top_; }

 private:
  using Record = CycleRecord<Ports>;

  void HalfCycle(int clk) {
    top_->clk_i = clk;
    top_->eval();
    if (fst_) {
      fst_->dump(time_);
    }
    time_ += 5;
  }

  std::string CheckInputWidths(const In& in) const {
    std::string bad;
    Ports::ForEachIn(p_, in, [&](const golden::FieldRef& f, uint64_t value) {
      if (f.width < 64 && (value >> f.width) != 0 && bad.empty()) {
        bad = "input " + f.Label() + " = " + Hex(value) + " does not fit in " +
              std::to_string(f.width) + " bits";
      }
    });
    return bad;
  }

  std::string MismatchReport(const std::string& what, const std::string& diff) const {
    std::ostringstream os;
    os << "LOCKSTEP FAILURE: " << opt_.block << "/" << opt_.config
       << (opt_.netlist ? " (Yosys netlist)" : "") << ", seed " << opt_.seed << ", cycle " << cycle_
       << ": " << what << "\n";
    if (!diff.empty()) {
      os << diff;
    }
    os << "previous cycles (inputs | RTL outputs | model outputs):\n"
       << FormatHistory<Ports>(p_, history_, cycle_);
    os << "reproduce with waves:\n  HTM_WAVES=" << opt_.block << "_" << opt_.config
       << (opt_.netlist ? "_netlist" : "") << ".fst " << opt_.repro << "\n";
    return os.str();
  }

  Params p_;
  RunOptions opt_;
  Model model_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Top> top_;
  std::unique_ptr<VerilatedFstC> fst_;
  std::array<Record, kHistory> history_{};
  Out last_out_{};
  uint64_t cycle_ = 0;
  uint64_t time_ = 0;
  std::string error_;
};

}  // namespace htm::tb
