// SPDX-License-Identifier: Apache-2.0
//
// Formatting for lockstep reports, generic over a block's Ports traits (htm/golden/ports.h):
// field-by-field diffs in hex, one-line renderings of inputs/outputs, and the GTKWave view
// (.gtkw) written next to every FST, with the block's ports grouped.
#pragma once

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

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
  std::ostringstream os;
  Ports::ForEachOut(p, dut, model,
                    [&](const char* name, int width, uint64_t d, uint64_t m, bool compared) {
                      if (compared && d != m) {
                        os << "  " << name << "_o [" << width << " bits]: RTL " << Hex(d)
                           << ", model " << Hex(m) << "\n";
                      }
                    });
  return os.str();
}

template <class Ports>
std::string FormatIn(const typename Ports::Params& p, const typename Ports::In& in) {
  std::ostringstream os;
  bool first = true;
  Ports::ForEachIn(p, in, [&](const char* name, int, uint64_t v) {
    os << (first ? "" : " ") << name << "=" << Hex(v);
    first = false;
  });
  return os.str();
}

/// Renders `out` (the RTL's outputs, or the model's with model=true; `dut` marks differences).
template <class Ports>
std::string FormatOut(const typename Ports::Params& p, const typename Ports::Out& dut,
                      const typename Ports::Out& out, bool model = false) {
  std::ostringstream os;
  bool first = true;
  Ports::ForEachOut(p, dut, out, [&](const char* name, int, uint64_t d, uint64_t m, bool cmp) {
    const uint64_t v = model ? m : d;
    os << (first ? "" : " ") << name << "=" << Hex(v) << (model && cmp && d != m ? "*" : "");
    first = false;
  });
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
  f << "@800200\n-inputs\n";
  typename Ports::In in{};
  Ports::ForEachIn(p, in, [&](const char* name, int width, uint64_t) {
    f << (width > 1 ? "@22\n" : "@28\n");
    sig(std::string(name) + "_i", width);
  });
  f << "@1000200\n-inputs\n@800200\n-outputs\n";
  typename Ports::Out out{};
  Ports::ForEachOut(p, out, out, [&](const char* name, int width, uint64_t, uint64_t, bool) {
    f << (width > 1 ? "@22\n" : "@28\n");
    sig(std::string(name) + "_o", width);
  });
  f << "@1000200\n-outputs\n";
}

}  // namespace htm::tb
