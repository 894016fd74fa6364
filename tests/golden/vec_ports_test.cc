// SPDX-License-Identifier: Apache-2.0
//
// Vector ports (HTM_IN_VEC / HTM_OUT_VEC): packing into Verilated scalar and VlWide ports and
// back, per-element qualifiers, and the reports (diff per element, one-line rendering, width
// check, GTKWave view with the packed port once).
#include <cstdint>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "verilated.h"

#include "htm/golden/ports.h"
#include "htm/tb/report.h"

namespace htm::test {
#define HTM_BLOCK VecTest
#define HTM_BLOCK_DEF "vec_ports_test.def"
#include "htm/golden/port_gen.inc"
}  // namespace htm::test

namespace htm::tb {
namespace {
using golden::Vec;
using test::VecTestIn;
using test::VecTestOut;
using test::VecTestParams;
using test::VecTestPorts;

// What Verilator generates for 5 lanes of 7-bit addresses (35 bits: QData), 5 x 32 data bits
// (VlWide<5>) and 3 x 4 tag bits (SData).
struct FakeTop {
  CData valid_i = 0;
  QData addr_i = 0;
  VlWide<5> data_i{};
  CData rsp_valid_o = 0;
  VlWide<5> rsp_data_o{};
  SData rsp_tag_o = 0;
};

constexpr VecTestParams kP{.lanes = 5, .addr_w = 7};

TEST(VecPorts, DrivePacksElementsIntoScalarAndWidePorts) {
  FakeTop top;
  VecTestIn in;
  in.valid = 1;
  for (int e = 0; e < 5; ++e) {
    in.addr[e] = static_cast<uint64_t>(0x40 + e);
    in.data[e] = 0xA0000000u + static_cast<uint64_t>(e);
  }
  VecTestPorts::Drive(kP, top, in);
  EXPECT_EQ(top.valid_i, 1);
  uint64_t want = 0;
  for (int e = 0; e < 5; ++e) {
    want |= static_cast<uint64_t>(0x40 + e) << (7 * e);
  }
  EXPECT_EQ(top.addr_i, want);
  for (int w = 0; w < 5; ++w) {
    EXPECT_EQ(top.data_i[w], 0xA0000000u + static_cast<uint32_t>(w)) << "word " << w;
  }
}

TEST(VecPorts, ElementsStraddlingWordsRoundTrip) {
  // 3 elements of 20 bits in a 60-bit scalar, and 5 of 13 bits across VlWide words.
  Vec v{}, back{};
  v[0] = 0xABCDE;
  v[1] = 0x12345;
  v[2] = 0xFFFFF;
  QData q = 0;
  golden::PackVec(q, v, 3, 20);
  golden::UnpackVec(q, back, 3, 20);
  EXPECT_EQ(back, v);
  VlWide<3> w{};
  for (int e = 0; e < 5; ++e) {
    v[e] = (0x1357u * static_cast<uint64_t>(e + 1)) & 0x1fff;
  }
  golden::PackVec(w, v, 5, 13);
  golden::UnpackVec(w, back, 5, 13);
  EXPECT_EQ(back, v);
  // Bits above each element's width are not driven.
  Vec big{};
  big[0] = ~uint64_t{0};
  VlWide<3> z{};
  golden::PackVec(z, big, 5, 13);
  EXPECT_EQ(z[0], 0x1fffu);
  EXPECT_EQ(z[1], 0u);
}

TEST(VecPorts, PackingIntoATooNarrowPortThrows) {
  Vec v{};
  VlWide<3> w{};
  EXPECT_THROW(golden::PackVec(w, v, 5, 32), std::logic_error);  // 160 bits into 96
  QData q = 0;
  EXPECT_THROW(golden::PackVec(q, v, 3, 32), std::logic_error);  // 96 bits into a scalar
}

TEST(VecPorts, SampleUnpacksOutputs) {
  FakeTop top;
  top.rsp_valid_o = 1;
  for (int w = 0; w < 5; ++w) {
    top.rsp_data_o[w] = 0x100u + static_cast<uint32_t>(w);
  }
  top.rsp_tag_o = 0x321;
  const VecTestOut out = VecTestPorts::Sample(kP, top);
  EXPECT_EQ(out.rsp_valid, 1u);
  for (int e = 0; e < 5; ++e) {
    EXPECT_EQ(out.rsp_data[e], 0x100u + static_cast<uint64_t>(e));
  }
  EXPECT_EQ(out.rsp_tag[0], 1u);
  EXPECT_EQ(out.rsp_tag[1], 2u);
  EXPECT_EQ(out.rsp_tag[2], 3u);
  EXPECT_EQ(out.rsp_data[5], 0u);  // past the count
}

TEST(VecPorts, DiffNamesTheElementAndHonoursPerElementQualifiers) {
  VecTestOut model, dut;
  model.rsp_valid = dut.rsp_valid = 1;
  model.rsp_known = 0b11011;  // element 2 is not known: not compared
  for (int e = 0; e < 5; ++e) {
    model.rsp_data[e] = dut.rsp_data[e] = static_cast<uint64_t>(e);
  }
  dut.rsp_data[2] = 99;
  EXPECT_EQ(DiffOutputs<VecTestPorts>(kP, dut, model), "");
  dut.rsp_data[3] = 77;
  EXPECT_EQ(DiffOutputs<VecTestPorts>(kP, dut, model),
            "  rsp_data_o[3] [32 bits]: RTL 0x4d, model 0x3\n");
  dut.rsp_tag[1] = 5;
  EXPECT_NE(DiffOutputs<VecTestPorts>(kP, dut, model).find("rsp_tag_o[1] [4 bits]"),
            std::string::npos);
}

TEST(VecPorts, OneLineRenderingListsNonZeroElements) {
  VecTestIn in;
  in.valid = 1;
  in.addr[1] = 3;
  in.addr[4] = 0x7f;
  EXPECT_EQ(FormatIn<VecTestPorts>(kP, in), "valid=0x1 addr={1:0x3,4:0x7f} data={}");
  VecTestOut model, dut;
  model.rsp_valid = dut.rsp_valid = 1;
  model.rsp_known = 0x1f;
  model.rsp_data[0] = 5;
  dut.rsp_data[0] = 6;
  EXPECT_EQ(FormatOut<VecTestPorts>(kP, dut, model, /*model=*/true),
            "rsp_valid=0x1 rsp_data={0:0x5*} rsp_tag={}");
  EXPECT_EQ(FormatOut<VecTestPorts>(kP, dut, dut), "rsp_valid=0x1 rsp_data={0:0x6} rsp_tag={}");
}

TEST(VecPorts, FieldsAreVisitedPerElementWithTheirWidths) {
  VecTestIn in;
  in.addr[2] = 0x80;  // does not fit in 7 bits
  std::string bad;
  VecTestPorts::ForEachIn(kP, in, [&](const golden::FieldRef& f, uint64_t v) {
    if ((v >> f.width) != 0) {
      bad = f.Label();
    }
  });
  EXPECT_EQ(bad, "addr[2]");
}

TEST(VecPorts, GtkwaveViewHasEachPackedPortOnce) {
  const std::string path = ::testing::TempDir() + "vec_ports.fst";
  WriteGtkwView<VecTestPorts>(path, "vec_test", kP);
  std::ifstream f(path + ".gtkw");
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string view = ss.str();
  EXPECT_NE(view.find("TOP.vec_test.addr_i[34:0]"), std::string::npos) << view;
  EXPECT_NE(view.find("TOP.vec_test.data_i[159:0]"), std::string::npos) << view;
  EXPECT_NE(view.find("TOP.vec_test.rsp_data_o[159:0]"), std::string::npos) << view;
  EXPECT_NE(view.find("TOP.vec_test.rsp_tag_o[11:0]"), std::string::npos) << view;
  EXPECT_EQ(view.find("rsp_known"), std::string::npos) << view;
}

// The packers against a bit-at-a-time reference: every width 1..64, every element count that
// fits a 31-word port (992 bits), random element values with bits above the width set.
TEST(VecPorts, PackingMatchesABitAtATimeReference) {
  std::mt19937_64 rng(7);
  for (int width = 1; width <= 64; ++width) {
    for (int count = 1; count <= golden::kMaxVec && count * width <= 31 * 32; count += 5) {
      Vec v{};
      for (int e = 0; e < count; ++e) {
        v[e] = rng();
      }
      VlWide<31> port{};
      for (int i = 0; i < 31; ++i) {
        port[i] = 0xDEADBEEF;  // stale contents: the packer clears every word
      }
      golden::PackVec(port, v, count, width);
      for (int bit = 0; bit < 31 * 32; ++bit) {
        const int e = bit / width;
        const uint32_t want = e < count ? static_cast<uint32_t>((v[e] >> (bit % width)) & 1) : 0;
        ASSERT_EQ((port[bit / 32] >> (bit % 32)) & 1, want)
            << "width " << width << ", count " << count << ", bit " << bit;
      }
      Vec back{};
      back[count % golden::kMaxVec] = 99;  // the unpacker clears elements past the count
      golden::UnpackVec(port, back, count, width);
      for (int e = 0; e < golden::kMaxVec; ++e) {
        ASSERT_EQ(back[e], e < count ? v[e] & golden::LowMask(width) : 0)
            << "width " << width << ", count " << count << ", element " << e;
      }
    }
  }
}

}  // namespace
}  // namespace htm::tb
