// SPDX-License-Identifier: Apache-2.0
//
// Functional coverage of the golden models (docs/coverage.md): per block, a named set of events
// a verification engineer wants to see happen (a table full, a pointer wrapping, an eviction, a
// conflict, a retry, back-pressure, a protocol corner), counted by the golden model in Tick.
// The counts are since construction, not cleared by Reset (like CommitUnitModel::Stats), and
// counting changes nothing the model does.
//
// A block's events are declared once, in golden/include/htm/golden/cover/<block>.def:
//
//   HTM_COVER(<member and name>, "<what happened>")
//
// Including "htm/golden/cover_gen.inc" with HTM_COVER_BLOCK (a C++ name prefix) and
// HTM_COVER_DEF (the .def path) defined generates, in the current namespace,
//   struct <Block>Cover  one uint64_t counter per event, in declaration order, and
//                        View(prefix): the events as a Coverage, named prefix + member,
// so that names, descriptions and counters cannot drift apart. A model keeps a <Block>Cover,
// increments its members in Tick, and offers `Coverage coverage() const`; a model that holds
// another block's model (the commit unit its Last Writer History) appends that model's view
// under a prefix ("lwh.").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace htm::golden {

/// One coverage event and how often it happened.
struct CoverEvent {
  std::string name;
  std::string description;
  uint64_t count = 0;
  bool operator==(const CoverEvent&) const = default;
};

/// A model's coverage events, in the order of its .def (then those of the models it holds).
using Coverage = std::vector<CoverEvent>;

/// Adds `c`'s counts to `sum` event by event (by name); events `sum` lacks are appended.
inline void AddCoverage(Coverage& sum, const Coverage& c) {
  for (const CoverEvent& e : c) {
    bool found = false;
    for (CoverEvent& s : sum) {
      if (s.name == e.name) {
        s.count += e.count;
        found = true;
        break;
      }
    }
    if (!found) {
      sum.push_back(e);
    }
  }
}

}  // namespace htm::golden
