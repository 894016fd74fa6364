// SPDX-License-Identifier: Apache-2.0
//
// Number formats of htmsim's reports (the suite's report and its energy section).
#pragma once

#include <cstdint>
#include <iomanip>
#include <sstream>
#include <string>

namespace htm::sim {

/// v with `digits` decimals.
inline std::string Fixed(double v, int digits) {
  std::ostringstream o;
  o << std::fixed << std::setprecision(digits) << v;
  return o.str();
}

/// v with its thousands apart: 1 234 567.
inline std::string Thousands(uint64_t v) {
  std::string s = std::to_string(v), o;
  for (size_t i = 0; i < s.size(); ++i) {
    if (i > 0 && (s.size() - i) % 3 == 0) {
      o += ' ';
    }
    o += s[i];
  }
  return o;
}

/// part / whole as a whole percentage, "–" when whole is 0.
inline std::string Percent(double part, double whole) {
  return whole == 0 ? "–" : Fixed(100.0 * part / whole, 0) + " %";
}

}  // namespace htm::sim
