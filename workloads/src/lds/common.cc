// SPDX-License-Identifier: Apache-2.0
//
// The shared pieces of the benchmark workloads: see common.h.
#include "common.h"

#include <algorithm>
#include <queue>
#include <stdexcept>
#include <unordered_set>

#include "htm/workloads/lds/workloads.h"

namespace htm::lds::detail {

uint64_t VariantSeed(uint64_t seed, std::string_view bench, Contention c) {
  uint64_t h = 0xCBF29CE484222325ull;  // FNV-1a of the benchmark name
  for (const char ch : bench) {
    h = (h ^ static_cast<uint8_t>(ch)) * 0x100000001B3ull;
  }
  h ^= c == Contention::kHigh ? 0x9E3779B97F4A7C15ull : 0;
  Rng mix(seed ^ h);
  return mix.Next();
}

namespace {

std::string GeometryText(const Geometry& g) {
  std::ostringstream os;
  os << "wg_size " << g.wg_size << ", wf_size " << g.wf_size << ", lds_words " << g.lds_words;
  return os.str();
}

bool UsesAtomics(std::string_view bench) {
  return bench == "HT" || bench == "IT" || bench == "DB" || bench == "QU";
}

}  // namespace

BenchBase::BenchBase(std::string_view bench, const Geometry& geo, Contention c, Version v)
    : geo_(geo), contention_(c), version_(v) {
  name_ = std::string(bench) + "-" + ToString(c) + "/" + ToString(v);
  if (geo.wg_size < 1 || geo.wf_size < 1 || geo.lds_words < 1) {
    Refuse("every size must be positive");
  }
  if (geo.wg_size % geo.wf_size != 0) {
    Refuse("wg_size must be a multiple of wf_size");
  }
  if (geo.wg_size > 65536) {
    Refuse("at most 65536 work-items");
  }
  if ((v == Version::kAtomic && !UsesAtomics(bench)) ||
      (v == Version::kFgl && UsesAtomics(bench))) {
    Refuse("Table 5.7 has no such version of this benchmark");
  }
}

void BenchBase::Refuse(const std::string& why) const {
  throw std::invalid_argument(name_ + " (" + GeometryText(geo_) + "): " + why);
}

void BenchBase::RequireFits(uint32_t words) const {
  if (words > static_cast<uint32_t>(geo_.lds_words)) {
    Refuse("needs " + std::to_string(words) + " LDS words, the geometry has " +
           std::to_string(geo_.lds_words));
  }
}

std::vector<size_t> SerialOrder(const std::vector<VersionedRecord>& records,
                                const std::vector<uint32_t>& final_versions, Problems* problems) {
  const size_t n = records.size();
  const size_t objs = final_versions.size();
  constexpr size_t kNone = SIZE_MAX;
  // writer[o][k]: the record that wrote version k (>= 1) of object o.
  std::vector<std::vector<size_t>> writer(objs);
  for (size_t o = 0; o < objs; ++o) {
    writer[o].assign(size_t{final_versions[o]} + 1, kNone);
  }
  bool bad = false;
  for (size_t i = 0; i < n; ++i) {
    const VersionedRecord& r = records[i];
    for (const VersionedAccess& a : r.access) {
      if (a.obj >= objs) {
        problems->Add("work-item ", r.wi, " round ", r.round, " names object ", a.obj);
        bad = true;
        continue;
      }
      const uint32_t fin = final_versions[a.obj];
      if (a.version > fin || (a.write && a.version == fin)) {
        problems->Add("work-item ", r.wi, " round ", r.round, (a.write ? " updated" : " read"),
                      " version ", a.version, " of object ", a.obj, ", whose final version is ",
                      fin);
        bad = true;
        continue;
      }
      if (a.write) {
        size_t& w = writer[a.obj][a.version + 1];
        if (w != kNone) {
          problems->Add("work-items ", records[w].wi, " (round ", records[w].round, ") and ", r.wi,
                        " (round ", r.round, ") both updated version ", a.version, " of object ",
                        a.obj, " (lost update)");
          bad = true;
        } else {
          w = i;
        }
      }
    }
  }
  for (size_t o = 0; o < objs; ++o) {
    for (uint32_t k = 1; k <= final_versions[o]; ++k) {
      if (writer[o][k] == kNone) {
        problems->Add("no critical section produced version ", k, " of object ", o,
                      " (final version ", final_versions[o], "): an update was duplicated");
        bad = true;
        break;
      }
    }
  }
  if (bad) {
    return {};
  }
  std::vector<std::vector<size_t>> next(n);
  std::vector<uint32_t> preds(n, 0);
  auto edge = [&](size_t from, size_t to) {
    if (from != to) {
      next[from].push_back(to);
      ++preds[to];
    }
  };
  for (size_t i = 0; i < n; ++i) {
    for (const VersionedAccess& a : records[i].access) {
      if (a.version >= 1) {
        edge(writer[a.obj][a.version], i);
      }
      if (!a.write && a.version < final_versions[a.obj]) {
        edge(i, writer[a.obj][a.version + 1]);
      }
    }
  }
  std::vector<size_t> by_wi(n);
  for (size_t i = 0; i < n; ++i) {
    by_wi[i] = i;
  }
  std::sort(by_wi.begin(), by_wi.end(), [&](size_t a, size_t b) {
    return std::pair(records[a].wi, records[a].round) < std::pair(records[b].wi, records[b].round);
  });
  for (size_t i = 1; i < n; ++i) {
    if (records[by_wi[i]].wi == records[by_wi[i - 1]].wi) {
      edge(by_wi[i - 1], by_wi[i]);
    }
  }
  std::priority_queue<size_t, std::vector<size_t>, std::greater<size_t>> ready;
  for (size_t i = 0; i < n; ++i) {
    if (preds[i] == 0) {
      ready.push(i);
    }
  }
  std::vector<size_t> order;
  order.reserve(n);
  while (!ready.empty()) {
    const size_t i = ready.top();
    ready.pop();
    order.push_back(i);
    for (const size_t j : next[i]) {
      if (--preds[j] == 0) {
        ready.push(j);
      }
    }
  }
  if (order.size() != n) {
    problems->Add("the versions read admit no serial order (", n - order.size(),
                  " critical sections wait on each other in a cycle)");
    return {};
  }
  return order;
}

}  // namespace htm::lds::detail
