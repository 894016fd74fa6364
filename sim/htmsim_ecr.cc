// SPDX-License-Identifier: Apache-2.0
//
// htmsim ecr: benchmarks of the early-conflict-resolution blocks.
//
//   htmsim ecr rates [--rtl]   CAT lookups and deltas per cycle, RCT updates per cycle
//
// Each pattern runs on a fresh block of the paper-size configuration (htm_cat/default,
// htm_rct/default) through the golden model, and with --rtl (htmsim-rtl) through the Verilated
// RTL as well; the two must take the same number of cycles.
#include <cstdint>
#include <cstdio>
#include <functional>
#include <iostream>
#include <string>

#include <boost/program_options.hpp>

#include "cli_util.h"
#include "commands.h"
#include "htm/configs/htm_cat.h"
#include "htm/configs/htm_rct.h"
#include "htm/golden/cat_model.h"
#include "htm/golden/instance.h"
#include "htm/golden/rct_model.h"
#include "rtl_models.h"

namespace po = boost::program_options;

namespace htm::sim {

namespace {

using htm::golden::CatDelta;
using htm::golden::CatIn;
using htm::golden::CatOut;
using htm::golden::RctIn;
using htm::golden::RctOut;

// What a pattern measured.
struct Result {
  uint64_t cycles = 0;    // from the first cycle with work to the last result
  uint64_t a = 0, b = 0;  // the pattern's two counts (lanes answered, deltas applied, ...)
};

// Runs `body` on the golden model and, with rtl, on the Verilated RTL of the named configuration
// with parameters `p` too (reset, alone); true when the two results agree. An RTL assertion
// failure is a disagreement (its report printed).
template <class Model, class P, class In, class Out>
bool Both(const P& p, const char* block, bool rtl,
          const std::function<Result(std::function<Out(const In&)>)>& body, Result& model_result,
          Result& rtl_result) {
  using Ports = typename Model::Ports;
  auto run = [&](golden::Instance<Ports>& inst) {
    return body([&](const In& in) {
      const Out o = inst.Eval(in);
      inst.Tick(in);
      return o;
    });
  };
  golden::GoldenInstance<Model> m(p);
  model_result = run(m);
  if (!rtl) {
    return true;
  }
  golden::InstanceInfo info;
  info.block = block;
  info.name = block;
  try {
    const auto top = RtlModelFactory()->Make<Ports>(golden::Impl::kRtl, p, info);
    rtl_result = run(*top);
  } catch (const golden::InstanceMismatch& e) {
    std::printf("\n%s", e.what());
    return false;
  }
  return rtl_result.cycles == model_result.cycles && rtl_result.a == model_result.a &&
         rtl_result.b == model_result.b;
}

// ---------------------------------------------------------------------------------------------
// CAT
// ---------------------------------------------------------------------------------------------

// `lookups` requests of `lanes` lanes (reads of distinct words) and `msgs` messages of Batch
// adds, each stream back to back, both starting in the same cycle. a = lanes answered,
// b = deltas applied.
Result CatPattern(const htm::golden::CatParams& p, std::function<CatOut(const CatIn&)> cycle,
                  int lookups, int lanes, int msgs) {
  CatIn idle;
  while (!cycle(idle).ready) {
  }
  Result r;
  int sent_lkp = 0, sent_msg = 0, answered = 0;
  uint64_t next_addr = 1;
  const uint64_t lane_mask = lanes >= 64 ? ~uint64_t{0} : (uint64_t{1} << lanes) - 1;
  const uint64_t want_deltas = static_cast<uint64_t>(msgs) * p.batch;
  while (answered < lookups || r.b < want_deltas) {
    CatIn in;
    if (sent_lkp < lookups) {
      in.lkp_valid = 1;
      in.lkp_mask = lane_mask;
      for (int l = 0; l < p.warp_size; ++l) {
        in.lkp_addr[l] = static_cast<uint64_t>(l) * 7 + 1;
      }
    }
    if (sent_msg < msgs) {
      in.msg_valid = 1;
      in.msg_count = static_cast<uint64_t>(p.batch);
      for (int d = 0; d < p.batch; ++d) {
        in.msg_dlt[d] = CatDelta{next_addr + static_cast<uint64_t>(d), d % 2 == 0, true}.Pack();
      }
    }
    const CatOut o = cycle(in);
    ++r.cycles;
    if (in.lkp_valid && o.lkp_ready) {
      ++sent_lkp;
    }
    if (in.msg_valid && o.msg_ready) {
      ++sent_msg;
      next_addr += static_cast<uint64_t>(p.batch);
    }
    if (o.rsp_valid) {
      ++answered;
      r.a += static_cast<uint64_t>(lanes);
    }
    r.b += o.dlt_valid;
    if (r.cycles > 10'000'000) {
      break;
    }
  }
  return r;
}

// ---------------------------------------------------------------------------------------------
// RCT
// ---------------------------------------------------------------------------------------------

// Events for `n` cycles: every cycle (kind 0) an increment of a new word; (kind 1) on even
// cycles an increment of a new word, on odd cycles a decrement of the word incremented `lag`
// cycles earlier; (kind 2) both in every cycle. Runs until the table is quiet.
// a = deltas emitted, b = increments lost in the queue, c = increments of a full set,
// d = decrements that found no count.
struct RctResult : Result {
  uint64_t c = 0, d = 0;
};
RctResult RctPattern(std::function<RctOut(const RctIn&)> cycle, int n, int kind, int lag) {
  RctIn idle;
  while (!cycle(idle).ready) {
  }
  RctResult r;
  auto word = [](int i) { return static_cast<uint64_t>(i) * 5 + 3; };
  for (int t = 0;; ++t) {
    RctIn in;
    if (t < n) {
      const bool inc = kind != 1 || t % 2 == 0;
      const bool dec = kind == 2 ? t >= lag : kind == 1 && t % 2 == 1 && t >= lag;
      if (inc) {
        in.inc_valid = 1;
        in.inc_addr = word(t);
        in.inc_write = (t / 2) % 2;
      }
      if (dec) {
        const int i = kind == 2 ? t - lag : t - lag - 1;  // an incremented word
        in.dec_valid = 1;
        in.dec_addr = word(i);
        in.dec_write = (i / 2) % 2;
      }
    }
    const RctOut o = cycle(in);
    ++r.cycles;
    r.a += o.dlt_valid;
    r.b += o.lost_queue;
    r.c += o.lost_full;
    r.d += o.dec_ignored;
    if ((t >= n && !o.busy && !o.dlt_valid) || r.cycles > 10'000'000) {
      break;
    }
  }
  return r;
}

int Rates(bool rtl) {
  const auto cp = htm::configs::htm_cat::kDefault;
  const auto rp = htm::configs::htm_rct::kDefault;
  int bad = 0;
  auto rtl_col = [&](bool same, const Result& rr) {
    if (rtl) {
      std::printf(" %10llu%s", static_cast<unsigned long long>(rr.cycles), same ? "" : " DIFFERS");
      bad += same ? 0 : 1;
    }
    std::printf("\n");
  };

  std::printf(
      "htmsim ecr rates: htm_cat/default (%d x %d entries, %d lookup ports, %d-lane warps, "
      "messages of %d deltas)\n\n",
      cp.sets, cp.ways, cp.num_ports, cp.warp_size, cp.batch);
  std::printf("%-52s %8s %13s %13s%s\n", "pattern", "cycles", "lookups/cyc", "deltas/cyc",
              rtl ? "  RTL cycles" : "");
  struct CatCase {
    const char* name;
    int lookups, lanes, msgs;
  };
  const CatCase cats[] = {
      {"lookups of 32 lanes, back to back", 256, 32, 0},
      {"lookups of 5 lanes, back to back", 256, 5, 0},
      {"lookups of 1 lane, back to back", 256, 1, 0},
      {"messages of 8 adds, back to back", 0, 0, 256},
      {"lookups of 32 lanes and messages of 8, together", 256, 32, 256},
  };
  for (const CatCase& c : cats) {
    Result mr, rr;
    const bool same =
        Both<htm::golden::CatModel>(cp, "htm_cat", rtl,
                                    std::function<Result(std::function<CatOut(const CatIn&)>)>(
                                        [&](std::function<CatOut(const CatIn&)> cyc) {
                                          return CatPattern(cp, cyc, c.lookups, c.lanes, c.msgs);
                                        }),
                                    mr, rr);
    std::printf("%-52s %8llu %13.3f %13.3f", c.name, static_cast<unsigned long long>(mr.cycles),
                static_cast<double>(mr.a) / static_cast<double>(mr.cycles),
                static_cast<double>(mr.b) / static_cast<double>(mr.cycles));
    rtl_col(same, rr);
  }

  std::printf(
      "\nhtm_rct/default (%d x %d entries, increment queue of %d, messages of %d deltas)\n\n",
      rp.sets, rp.ways, rp.inc_queue, rp.batch);
  std::printf("%-52s %8s %11s %9s %9s %9s%s\n", "pattern", "cycles", "deltas/cyc", "inc lost",
              "set full", "dec none", rtl ? "  RTL cycles" : "");
  struct RctCase {
    const char* name;
    int n, kind, lag;
  };
  const RctCase rcts[] = {
      {"an increment of a new word every cycle", 2048, 0, 0},
      {"increments and decrements taking turns", 4096, 1, 64},
      {"an increment and a decrement every cycle", 2048, 2, 64},
  };
  for (const RctCase& c : rcts) {
    RctResult mr, rr;  // the model's run, then the RTL's
    Result mb, rb;
    int run = 0;
    const bool same =
        Both<htm::golden::RctModel>(rp, "htm_rct", rtl,
                                    std::function<Result(std::function<RctOut(const RctIn&)>)>(
                                        [&](std::function<RctOut(const RctIn&)> cyc) {
                                          const RctResult x = RctPattern(cyc, c.n, c.kind, c.lag);
                                          (run++ == 0 ? mr : rr) = x;
                                          return static_cast<Result>(x);
                                        }),
                                    mb, rb);
    std::printf("%-52s %8llu %11.3f %9llu %9llu %9llu", c.name,
                static_cast<unsigned long long>(mr.cycles),
                static_cast<double>(mr.a) / static_cast<double>(mr.cycles),
                static_cast<unsigned long long>(mr.b), static_cast<unsigned long long>(mr.c),
                static_cast<unsigned long long>(mr.d));
    rtl_col(same && (!rtl || (rr.c == mr.c && rr.d == mr.d)), rb);
  }
  std::printf(
      "\nCAT: lookups/cyc is lanes answered per cycle (the target is NumPorts for full warps);\n"
      "deltas/cyc is deltas applied per cycle (one per cycle, independent of lookups).\n"
      "RCT: deltas/cyc is deltas emitted per cycle (one table operation per cycle, each 0->1 or\n"
      "1->0 count a delta); inc lost: increments lost with the queue full (both events every\n"
      "cycle: decrements go first); set full: increments of a new word whose set was full;\n"
      "dec none: decrements that found no count (their increment was lost or dropped).\n");
  return bad ? 1 : 0;
}

int Usage(const po::options_description& desc) {
  std::cout << "Usage: htmsim ecr rates [options]\n\n"
               "Benchmarks of the early-conflict-resolution blocks (CAT, RCT).\n\n"
            << desc
            << "\n--rtl runs in htmsim-rtl (the Verilated models).\nExit status: 0 success, 1 "
               "RTL and model disagree, 2 bad usage.\n";
  return 0;
}

}  // namespace

int EcrCommand(int argc, char** argv) {
  std::string cmd;
  bool rtl = false;
  po::options_description desc("Options");
  desc.add_options()("help,h", "print this help and exit")(
      "rtl", po::bool_switch(&rtl), "rates: run the RTL models too (their cycles must agree)");
  po::variables_map vm;
  if (!ParseWithSubcommand("htmsim ecr", argc, argv, desc, vm, &cmd)) {
    return 2;
  }
  if (vm.count("help")) {
    return Usage(desc);
  }
  if (cmd != "rates") {
    std::cerr << "htmsim ecr: " << (cmd.empty() ? "no command" : "unknown command '" + cmd + "'")
              << " (rates; try htmsim ecr --help)\n";
    return 2;
  }
  return Rates(rtl);
}

}  // namespace htm::sim
