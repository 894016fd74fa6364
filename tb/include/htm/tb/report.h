// SPDX-License-Identifier: Apache-2.0
//
// Formatting for lockstep reports, generic over a block's Ports traits (htm/golden/ports.h):
// field-by-field diffs in hex, one-line renderings of inputs/outputs, and the GTKWave view
// (.gtkw) written next to every FST, with the block's ports grouped.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "htm/golden/ports.h"

namespace htm::tb {

inline std::string Hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

/// Every compared output field whose RTL and model values differ, one per line; empty if none.
template <class Ports>
std::string DiffOutputs(const typename Ports::Params& p, const typename Ports::Out& dut,
                        const typename Ports::Out& model) {
  if (dut == model) {
    return "";  // the common case, without a stream (its locale set-up would dominate)
  }
  std::ostringstream os;
  Ports::ForEachOut(
      p, dut, model, [&](const golden::FieldRef& f, uint64_t d, uint64_t m, bool compared) {
        if (compared && d != m) {
          os << "  " << f.name << "_o" << (f.index < 0 ? "" : "[" + std::to_string(f.index) + "]")
             << " [" << f.width << " bits]: RTL " << Hex(d) << ", model " << Hex(m) << "\n";
        }
      });
  return os.str();
}

/// One-line rendering of fields: a scalar as name=0x..; a vector port as name={i:0x..,...}
/// listing its non-zero elements (name={} when all are zero).
class FieldLine {
 public:
  void Add(const golden::FieldRef& f, uint64_t v, bool mark) {
    if (f.index <= 0) {
      os_ << (first_ ? "" : " ") << f.name << "=" << (f.index == 0 ? "{" : "");
      first_ = false;
      sep_ = false;
    }
    if (f.index < 0) {
      os_ << Hex(v) << (mark ? "*" : "");
      return;
    }
    if (v != 0 || mark) {
      os_ << (sep_ ? "," : "") << f.index << ":" << Hex(v) << (mark ? "*" : "");
      sep_ = true;
    }
    if (f.index == f.count - 1) {
      os_ << "}";
    }
  }
  std::string str() const { return os_.str(); }

 private:
  std::ostringstream os_;
  bool first_ = true;
  bool sep_ = false;
};

template <class Ports>
std::string FormatIn(const typename Ports::Params& p, const typename Ports::In& in) {
  FieldLine line;
  Ports::ForEachIn(p, in, [&](const golden::FieldRef& f, uint64_t v) { line.Add(f, v, false); });
  return line.str();
}

/// Renders `out` (the RTL's outputs, or the model's with model=true; `dut` marks differences).
template <class Ports>
std::string FormatOut(const typename Ports::Params& p, const typename Ports::Out& dut,
                      const typename Ports::Out& out, bool model = false) {
  FieldLine line;
  Ports::ForEachOut(p, dut, out, [&](const golden::FieldRef& f, uint64_t d, uint64_t m, bool cmp) {
    line.Add(f, model ? m : d, model && cmp && d != m);
  });
  return line.str();
}

/// One cycle of a lockstep pair, for the report's history.
template <class Ports>
struct CycleRecord {
  uint64_t cycle = 0;
  typename Ports::In in{};
  typename Ports::Out dut{};
  typename Ports::Out model{};
  bool reset = false;
};

/// The recorded cycles up to `now`, oldest first (inputs | RTL outputs | model outputs, the
/// model's differing fields starred), the current one marked with '>'.
template <class Ports, size_t N>
std::string FormatHistory(const typename Ports::Params& p,
                          const std::array<CycleRecord<Ports>, N>& history, uint64_t now) {
  std::ostringstream os;
  const uint64_t first = now >= N ? now - N + 1 : 0;
  for (uint64_t c = first; c <= now; ++c) {
    const CycleRecord<Ports>& r = history[c % N];
    if (r.cycle != c) {
      continue;
    }
    os << "  " << (c == now ? "> " : "  ") << "cycle " << c << ": ";
    if (r.reset) {
      os << "reset\n";
      continue;
    }
    os << FormatIn<Ports>(p, r.in) << " | " << FormatOut<Ports>(p, r.dut, r.dut) << " | "
       << FormatOut<Ports>(p, r.dut, r.model, /*model=*/true) << "\n";
  }
  return os.str();
}

/// Writes <waves>.gtkw (the FST name with .gtkw appended) opening the FST with the clock,
/// reset, inputs and outputs in groups.
template <class Ports>
void WriteGtkwView(const std::string& waves, const std::string& block,
                   const typename Ports::Params& p) {
  std::ofstream f(waves + ".gtkw");
  if (!f) {
    return;
  }
  auto sig = [&](const std::string& name, int width) {
    f << "TOP." << block << "." << name;
    if (width > 1) {
      f << "[" << width - 1 << ":0]";
    }
    f << "\n";
  };
  f << "[dumpfile] \"" << waves << "\"\n[timestart] 0\n";
  f << "@28\n";
  sig("clk_i", 1);
  sig("rst_ni", 1);
  for (const bool inputs : {true, false}) {
    const char* group = inputs ? "inputs" : "outputs";
    f << "@800200\n-" << group << "\n";
    Ports::ForEachPort(p, [&](const char* name, bool input, int width) {
      if (input == inputs) {
        f << (width > 1 ? "@22\n" : "@28\n");
        sig(std::string(name) + (input ? "_i" : "_o"), width);
      }
    });
    f << "@1000200\n-" << group << "\n";
  }
}

}  // namespace htm::tb
