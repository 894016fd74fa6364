// SPDX-License-Identifier: Apache-2.0
//
// Model-only tests of the Conflict Address Table golden model (no RTL), with fault injection on
// the delta channel: messages dropped, delayed (reordered), duplicated, and spurious deltas.
// Whatever arrives, in every named configuration:
//   * the table follows the deltas it applied: rebuilt from the applied deltas, an ideal map
//     holds every bit the table holds (never a bit no delta put there), and exactly the
//     table's bits for every address whose add was never dropped by a full set;
//   * every lookup answers after max(1, ceil(lanes / NumPorts)) cycles with, for every lane,
//     the hit rule applied to the table as it was when the lane was looked up;
//   * the ways in use never exceed the table.
// Also parameter validation.
#include "htm/golden/cat_model.h"

#include <deque>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "htm/configs/htm_cat.h"
#include "htm/tb/stimulus.h"

namespace htm::golden {
namespace {

struct Ideal {
  bool r = false;
  bool w = false;
};

TEST(CatModel, FollowsTheDeltasAndAnswersByTheHitRuleUnderFaults) {
  for (const auto& [name, p] : configs::htm_cat::kAll) {
    SCOPED_TRACE(std::string(name));
    CatModel m(p);
    tb::Rng rng(23);
    std::vector<uint64_t> pool;
    for (int i = 0; i < p.sets * p.ways + 3 && i < 6000; ++i) {
      pool.push_back(rng.Bits(p.addr_w));
    }
    auto addr = [&] { return rng.Pick(pool); };
    // The channel: messages an RCT would send, then faults on the way.
    std::deque<std::vector<CatDelta>> channel;
    std::vector<CatDelta> sent_adds;
    std::map<uint64_t, Ideal> ideal;  // from the deltas the table applied
    std::set<uint64_t> dropped;       // addresses with an add lost to a full set
    std::deque<CatDelta> accepted;    // deltas accepted, not yet applied
    std::map<std::string, int> seen;
    CatIn in;
    // The lookup in flight: accept cycle, lanes, expected hits as they are looked up.
    bool busy = false;
    int issued = 0, lanes = 0, waited = 0;
    uint64_t expect = 0;
    std::vector<int> lane_order;
    CatIn req;  // the accepted request
    for (int cycle = 0; cycle < 100000; ++cycle) {
      // Generate messages into the channel.
      if (rng.Chance(1, 3)) {
        std::vector<CatDelta> msg;
        const int n = 1 + static_cast<int>(rng.Below(p.batch));
        for (int i = 0; i < n; ++i) {
          CatDelta d;
          if (!sent_adds.empty() && rng.Chance(1, 2)) {
            const size_t k = rng.Below(sent_adds.size());
            d = sent_adds[k];
            d.add = false;
            sent_adds.erase(sent_adds.begin() + static_cast<long>(k));
          } else {
            d = CatDelta{addr(), rng.Chance(1, 3), !rng.Chance(1, 16)};  // a few spurious removes
            if (d.add) {
              sent_adds.push_back(d);
            }
          }
          msg.push_back(d);
        }
        if (rng.Chance(1, 20)) {
          ++seen["dropped message"];
        } else {
          channel.push_back(msg);
          if (rng.Chance(1, 20)) {
            channel.push_back(msg);
            ++seen["duplicated message"];
          }
          if (channel.size() >= 2 && rng.Chance(1, 10)) {
            std::swap(channel[channel.size() - 1], channel[channel.size() - 2]);
            ++seen["delayed message"];
          }
        }
      }
      if (!in.msg_valid && !channel.empty()) {
        const std::vector<CatDelta>& msg = channel.front();
        in.msg_valid = 1;
        in.msg_count = msg.size();
        in.msg_dlt.fill(0);
        for (size_t i = 0; i < msg.size(); ++i) {
          in.msg_dlt[i] = msg[i].Pack();
        }
      }
      if (!in.lkp_valid && rng.Chance(1, 2)) {
        in.lkp_valid = 1;
        in.lkp_write = rng.Chance(1, 2);
        in.lkp_mask = rng.Bits(p.warp_size);
        for (int l = 0; l < p.warp_size; ++l) {
          in.lkp_addr[l] = addr();
        }
      }
      const CatOut out = m.Eval(in);
      ASSERT_LE(out.used, static_cast<uint64_t>(p.sets * p.ways));
      // The response of the lookup in flight.
      if (out.rsp_valid) {
        ASSERT_TRUE(busy);
        ASSERT_EQ(waited, m.LookupLatency(lanes)) << "cycle " << cycle;
        ASSERT_EQ(out.rsp_hit, expect) << "cycle " << cycle;
        seen["hit"] += out.rsp_hit != 0;
        busy = false;
      }
      // Lanes looked up this cycle: the held request's next group, or the accepted one's first.
      const bool accept = in.lkp_valid && out.lkp_ready;
      if (accept) {
        ASSERT_FALSE(busy) << "accepted while a lookup is in flight, cycle " << cycle << " waited "
                           << waited << " lanes " << lanes;
        busy = true;
        issued = 0;
        waited = 0;
        expect = 0;
        req = in;
        lanes = __builtin_popcountll(in.lkp_mask);
        lane_order.clear();
        for (int l = 0; l < p.warp_size; ++l) {
          if ((in.lkp_mask >> l) & 1) {
            lane_order.push_back(l);
          }
        }
      }
      if (busy && (accept || issued < lanes)) {
        for (int k = 0; k < p.num_ports && issued < lanes; ++k, ++issued) {
          const int l = lane_order[issued];
          if (CatModel::Hit(m.Lookup(req.lkp_addr[l]), req.lkp_write != 0)) {
            expect |= uint64_t{1} << l;
          }
        }
      }
      if (busy) {
        ++waited;
      }
      // Deltas applied this cycle.
      if (out.dlt_valid) {
        ASSERT_FALSE(accepted.empty());
        const CatDelta d = accepted.front();
        accepted.pop_front();
        ASSERT_EQ(out.dlt, d.Pack());
        Ideal& x = ideal[d.addr];
        (d.write ? x.w : x.r) = d.add;
        if (out.drop_full) {
          dropped.insert(d.addr);
          ++seen["drop_full"];
        }
      }
      m.Tick(in);
      if (in.msg_valid && out.msg_ready) {
        for (uint64_t i = 0; i < in.msg_count; ++i) {
          accepted.push_back(CatDelta::Unpack(in.msg_dlt[i]));
        }
        channel.pop_front();
        in.msg_valid = 0;
      }
      if (accept) {
        in.lkp_valid = 0;
      }
      if (cycle % 50 == 0) {
        for (const auto& [a, x] : ideal) {
          const CatModel::Bits b = m.Lookup(a);
          ASSERT_TRUE(x.r || !b.read) << "a read bit no delta set, cycle " << cycle;
          ASSERT_TRUE(x.w || !b.written) << "a write bit no delta set, cycle " << cycle;
          if (!dropped.contains(a)) {
            ASSERT_EQ(b.read, x.r) << "cycle " << cycle;
            ASSERT_EQ(b.written, x.w) << "cycle " << cycle;
          }
        }
      }
    }
    for (const char* what :
         {"hit", "drop_full", "dropped message", "duplicated message", "delayed message"}) {
      EXPECT_GT(seen[what], 0) << what << " never happened";
    }
    EXPECT_EQ(m.Eval(CatIn{}).err, 0u);
  }
}

TEST(CatModel, RejectsBadParameters) {
  CatParams p = configs::htm_cat::kSmall;
  p.num_ports = p.warp_size + 1;
  EXPECT_THROW(CatModel{p}, std::invalid_argument);
  p = configs::htm_cat::kSmall;
  p.sets = 6;
  EXPECT_THROW(CatModel{p}, std::invalid_argument);
  p = configs::htm_cat::kSmall;
  p.warp_size = 65;
  EXPECT_NE(CheckCatParams(p).find("WarpSize"), std::string::npos);
}

}  // namespace
}  // namespace htm::golden
