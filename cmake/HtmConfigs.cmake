# SPDX-License-Identifier: Apache-2.0
#
# Blocks and their named configurations. One configuration yields both the RTL parameters
# (-G for Verilator, chparam for Yosys) and the C++ parameters (htm/configs/<block>.h), so the
# two cannot disagree. Every configuration lists every parameter of the block's .def file.
#
# htm_block(<top> PORTS <C++ Ports> BENCH <C++ bench> BENCH_HEADER <header> DEF <.def>
#           [FORMAL_TOP <wrapper>] [FORMAL_FILES <files>] [FORMAL_DEPTH <n>])
# htm_config(<top> <name> [CYCLES <n>] [NETLIST_CYCLES <n>] [LONG | LONG_NETLIST | LONG_SYNTH]
#            [NO_NETLIST] [KEEP_MEMORIES] [ROUTER router1|router2] [TRACE_DEPTH <n>]
#            <Param>=<value> ...)
#   CYCLES          cycles of the RTL lockstep test in `make test` (default 50000)
#   NETLIST_CYCLES  cycles of the netlist lockstep test in `make test` (default 2000)
#   LONG_NETLIST    its netlist is too big for make test (minutes of Yosys or of compiling the
#                   Verilated netlist): the netlist test runs in the long flows only
#                   (configured with -DHTM_LONG=ON: make regress, make fpga). A block's
#                   netlist in make test is the cheapest that still covers its structure; the
#                   costly ones (more than a minute of compiling) are LONG_NETLIST, unless a
#                   make-test flow needs them (the `machsmall` netlists: cosim.small_netlist.*).
#                   The configuration fails if that would leave a block with no netlist test.
#   LONG_SYNTH      its ECP5 synthesis takes minutes: label synth_long (make fpga)
#   LONG            both
#   NO_NETLIST      no netlist test at all (the same RTL's netlist is tested in its other
#                   configurations)
#   KEEP_MEMORIES   the netlist keeps memories as arrays (as RAM macros would be) and maps
#                   every other cell to gates; without it memories become flip-flops
#   ROUTER          nextpnr's router for the place-and-route test (router1 unless given)
#   TRACE_DEPTH     hierarchy levels in the RTL model's waves (Verilator --trace-depth; all
#                   unless given): large configurations keep their model's C++ small

htm_block(htm_sig
  PORTS htm::golden::SigPorts
  BENCH htm::tb::SigBench
  BENCH_HEADER htm/tb/benches/sig_bench.h
  DEF golden/include/htm/golden/ports/htm_sig.def)

# A 64-bit signature with 4 H3 hashes: the per-entry signature of the KILO TM simulator.
htm_config(htm_sig default NETLIST_CYCLES 3000
  AddrW=32 NumHashes=4 SlotsPerHash=16 HashKind=SigHashH3)
# GPU-LocalTM private read/write signature: 8 bits per work-item and bank, intra-bank
# address mod 8 (thesis Figure 5.5; 9-bit intra-bank word address of a 2 KB bank).
htm_config(htm_sig prwsig NETLIST_CYCLES 3000
  AddrW=9 NumHashes=1 SlotsPerHash=8 HashKind=SigHashMod)
# GPU-LocalTM shared write-only signature: 32 bits per wavefront and bank, mod 32.
htm_config(htm_sig swosig NETLIST_CYCLES 3000
  AddrW=9 NumHashes=1 SlotsPerHash=32 HashKind=SigHashMod)
# Degenerate: three hashes (not a power of two) of two slots over 5-bit addresses.
htm_config(htm_sig tiny NETLIST_CYCLES 3000
  AddrW=5 NumHashes=3 SlotsPerHash=2 HashKind=SigHashH3)
# Degenerate: one slot of one bit over a 1-bit address (saturates at the first insert).
htm_config(htm_sig one NETLIST_CYCLES 3000
  AddrW=1 NumHashes=1 SlotsPerHash=1 HashKind=SigHashMod)

htm_block(htm_sig_recency
  PORTS htm::golden::SigRecencyPorts
  BENCH htm::tb::SigRecencyBench
  BENCH_HEADER htm/tb/benches/sig_bench.h
  DEF golden/include/htm/golden/ports/htm_sig_recency.def)

# The Last Writer History's recency Bloom filter: 4 x 256 slots of 16-bit commit ids. Its
# flip-flop netlist is 55 MB of generated C++ (over an hour to compile on 2 cores): the same
# parametric RTL is netlist-tested in the other configurations.
htm_config(htm_sig_recency default LONG NO_NETLIST
  AddrW=32 NumHashes=4 SlotsPerHash=256 ValW=16 HashKind=SigHashH3)
# A small filter for quick netlist, formal and FPGA runs.
htm_config(htm_sig_recency small NETLIST_CYCLES 3000
  AddrW=16 NumHashes=2 SlotsPerHash=16 ValW=8 HashKind=SigHashH3)
# Degenerate: three hashes of two slots, 3-bit values that wrap quickly.
htm_config(htm_sig_recency tiny NETLIST_CYCLES 3000
  AddrW=4 NumHashes=3 SlotsPerHash=2 ValW=3 HashKind=SigHashH3)
# Degenerate: one 1-bit slot (a one-bit Bloom filter).
htm_config(htm_sig_recency one NETLIST_CYCLES 3000
  AddrW=1 NumHashes=1 SlotsPerHash=1 ValW=1 HashKind=SigHashMod)

htm_block(htm_sig_recency_ram
  PORTS htm::golden::SigRecencyRamPorts
  BENCH htm::tb::SigRecencyRamBench
  BENCH_HEADER htm/tb/benches/lwh_bench.h
  DEF golden/include/htm/golden/ports/htm_sig_recency_ram.def)

# The Last Writer History's recency Bloom filter: 4 x 256 slots of 16-bit commit ids.
htm_config(htm_sig_recency_ram default LONG_NETLIST
  AddrW=30 NumHashes=4 SlotsPerHash=256 ValW=16 HashKind=SigHashH3)
# Small: 5-bit values wrap every 32 steps of the reference.
htm_config(htm_sig_recency_ram small NETLIST_CYCLES 3000
  AddrW=8 NumHashes=2 SlotsPerHash=8 ValW=5 HashKind=SigHashH3)
# Degenerate: one slot of 2-bit values (every age of 1 is stale).
htm_config(htm_sig_recency_ram one NETLIST_CYCLES 3000
  AddrW=1 NumHashes=1 SlotsPerHash=1 ValW=2 HashKind=SigHashMod)
# Two slots per hash: the initial clear's end at the second slot (no other configuration has
# two). NO_NETLIST: the same RTL's netlist is tested above.
htm_config(htm_sig_recency_ram two NO_NETLIST
  AddrW=4 NumHashes=2 SlotsPerHash=2 ValW=3 HashKind=SigHashH3)

# ---- Commit unit ---------------------------------------------------------------------------------

htm_block(htm_lwh
  PORTS htm::golden::LwhPorts
  BENCH htm::tb::LwhBench
  BENCH_HEADER htm/tb/benches/lwh_bench.h
  DEF golden/include/htm/golden/ports/htm_lwh.def)

# KILO TM's Last Writer History: 256 x 4 table, 4 x 256 recency filter, 16-bit commit ids.
htm_config(htm_lwh default LONG_NETLIST
  AddrW=30 CidW=16 Sets=256 Ways=4 BfHashes=4 BfSlots=256 ScrubInterval=32 ResPipe=0)
# Small: 8-bit commit ids wrap every 256 steps; 8 entries against a pool of 14 addresses.
htm_config(htm_lwh small NETLIST_CYCLES 3000
  AddrW=10 CidW=8 Sets=4 Ways=2 BfHashes=2 BfSlots=8 ScrubInterval=4 ResPipe=0)
# Odd: three ways, a smaller table than filter, scrub every third cycle at the latest.
htm_config(htm_lwh odd NETLIST_CYCLES 3000
  AddrW=7 CidW=7 Sets=2 Ways=3 BfHashes=3 BfSlots=4 ScrubInterval=3 ResPipe=0)
# Degenerate: one entry, one filter slot, 5-bit commit ids.
htm_config(htm_lwh one NETLIST_CYCLES 3000
  AddrW=2 CidW=5 Sets=1 Ways=1 BfHashes=1 BfSlots=1 ScrubInterval=2 ResPipe=0)
# More sets than filter slots: the table's initial clear outlasts the filter's, so the scrub
# counter's count during the clear and the set hash's own bits become visible (no other
# configuration shows them). NO_NETLIST: the same RTL's netlist is tested above.
htm_config(htm_lwh moresets NO_NETLIST
  AddrW=6 CidW=6 Sets=2 Ways=2 BfHashes=2 BfSlots=1 ScrubInterval=3 ResPipe=0)
# One set of two ways against two filter slots: the opposite order of the two clears, and a
# hash with an address bit in every mask.
htm_config(htm_lwh moreslots NO_NETLIST
  AddrW=6 CidW=6 Sets=1 Ways=2 BfHashes=1 BfSlots=2 ScrubInterval=3 ResPipe=0)
# The small history with its lookup answer registered (one cycle later, the commit unit's
# LwhPipe for the prototype): the same operations, the answers delayed.
htm_config(htm_lwh pipe NETLIST_CYCLES 3000
  AddrW=10 CidW=8 Sets=4 Ways=2 BfHashes=2 BfSlots=8 ScrubInterval=4 ResPipe=1)

# ---- Primitives ---------------------------------------------------------------------------------

htm_block(htm_fifo
  PORTS htm::golden::FifoPorts
  BENCH htm::tb::FifoBench
  BENCH_HEADER htm/tb/benches/prim_bench.h
  DEF golden/include/htm/golden/ports/htm_fifo.def)
# The commit unit's input queue (64 entries in the KILO TM simulator) of 64-bit messages.
htm_config(htm_fifo default Width=64 Depth=64 OutReg=0)
# Degenerate: one entry of one bit; a non-power-of-two depth.
htm_config(htm_fifo one Width=1 Depth=1 OutReg=0)
htm_config(htm_fifo odd Width=5 Depth=3 OutReg=0)
# Registered outputs (the prototype crossbar's FIFOs): the same model, so the same behaviour.
htm_config(htm_fifo reg Width=5 Depth=3 OutReg=1)
htm_config(htm_fifo regone Width=1 Depth=1 OutReg=1)

htm_block(htm_rr_arb
  PORTS htm::golden::RrArbPorts
  BENCH htm::tb::RrArbBench
  BENCH_HEADER htm/tb/benches/prim_bench.h
  DEF golden/include/htm/golden/ports/htm_rr_arb.def)
# One requester per SIMT core of the papers' machine (15 cores), rounded to 16.
htm_config(htm_rr_arb default NumReq=16)
# Degenerate: a single requester; a non-power-of-two count.
htm_config(htm_rr_arb one NumReq=1)
htm_config(htm_rr_arb odd NumReq=5)

htm_block(htm_ram_1r1w
  PORTS htm::golden::Ram1r1wPorts
  BENCH htm::tb::Ram1r1wBench
  BENCH_HEADER htm/tb/benches/prim_bench.h
  DEF golden/include/htm/golden/ports/htm_ram_1r1w.def)
# An LDS bank: 2 KB = 512 words of 32 bits (GPU-LocalTM: 64 KB in 32 banks).
htm_config(htm_ram_1r1w default LONG_NETLIST Width=32 Depth=512 WriteFirst=0)
# A mid-size RAM for the netlist test of make test, write-first.
htm_config(htm_ram_1r1w small Width=8 Depth=32 WriteFirst=1)
# Degenerate: one word of one bit (write-first); a non-power-of-two depth (read-first).
htm_config(htm_ram_1r1w one Width=1 Depth=1 WriteFirst=1)
htm_config(htm_ram_1r1w odd Width=3 Depth=5 WriteFirst=0)

htm_block(htm_ram_sp
  PORTS htm::golden::RamSpPorts
  BENCH htm::tb::RamSpBench
  BENCH_HEADER htm/tb/benches/prim_bench.h
  DEF golden/include/htm/golden/ports/htm_ram_sp.def)
htm_config(htm_ram_sp default LONG_NETLIST Width=32 Depth=512)
htm_config(htm_ram_sp small Width=8 Depth=32)
htm_config(htm_ram_sp one Width=1 Depth=1)
htm_config(htm_ram_sp odd Width=3 Depth=5)

htm_block(htm_tcd
  PORTS htm::golden::TcdPorts
  BENCH htm::tb::TcdBench
  BENCH_HEADER htm/tb/benches/tcd_bench.h
  DEF golden/include/htm/golden/ports/htm_tcd.def)

# WarpTM's temporal conflict detection: 4 x 512 slots, 128-byte chunks, 20-bit cycle times.
htm_config(htm_tcd default LONG_NETLIST
  AddrW=30 ChunkShift=5 TsW=20 NumHashes=4 SlotsPerHash=512 ScrubInterval=256)
# Small: 8-bit times wrap every 256 cycles; 16-byte chunks; 2 x 8 slots.
htm_config(htm_tcd small NETLIST_CYCLES 3000
  AddrW=12 ChunkShift=2 TsW=8 NumHashes=2 SlotsPerHash=8 ScrubInterval=4)
# Degenerate: word chunks, one slot, 5-bit times (stale after 8 cycles).
htm_config(htm_tcd one NETLIST_CYCLES 3000
  AddrW=2 ChunkShift=0 TsW=5 NumHashes=1 SlotsPerHash=1 ScrubInterval=2)
# The small system-model machine's temporal conflict detection: 2 x 16 slots of 16-byte
# chunks, 12-bit times (stale after 1024 cycles).
htm_config(htm_tcd machsmall LONG_SYNTH NETLIST_CYCLES 3000
  AddrW=30 ChunkShift=2 TsW=12 NumHashes=2 SlotsPerHash=16 ScrubInterval=4)

htm_block(htm_commit_unit
  PORTS htm::golden::CommitUnitPorts
  BENCH htm::tb::CommitUnitBench
  BENCH_HEADER htm/tb/benches/commit_unit_bench.h
  DEF golden/include/htm/golden/ports/htm_commit_unit.def)

# The paper's unit (KILO TM slide 50): a 1024-entry ring, 32 KB of read/write-set words, the
# 256 x 4 Last Writer History with its 4 x 256 recency filter, 16-bit commit ids. Its netlist
# keeps the memories as arrays: with memories as flip-flops (four 4096-word buffer copies, the
# LWH) Yosys had 2.7 million cells after 13 minutes and was still optimising. Its netlist
# model is 25 CPU-minutes of C++ compilation: netlist-tested in the long flows (make regress),
# the small configurations in make test. Its bench runs the usual 50 000 cycles (once 20 000):
# fewer leave its ring, buffer and recency filter unfilled (docs/coverage.md).
htm_config(htm_commit_unit default LONG KEEP_MEMORIES NETLIST_CYCLES 3000
  ROUTER router2
  AddrW=30 DataW=32 CidW=16 SrcW=8 RingSize=1024 BufWords=4096 ValTags=16
  LwhSets=256 LwhWays=4 LwhBfHashes=4 LwhBfSlots=256 LwhScrubInterval=32 LwhPipe=0)
# Small: ring, word buffer and 8-bit commit ids wrap within a few hundred cycles; 4-bit data
# make stale reads that still match by value; three validation tags (not a power of two).
htm_config(htm_commit_unit small LONG_NETLIST NETLIST_CYCLES 3000
  AddrW=6 DataW=4 CidW=8 SrcW=2 RingSize=16 BufWords=32 ValTags=3
  LwhSets=4 LwhWays=2 LwhBfHashes=2 LwhBfSlots=4 LwhScrubInterval=4 LwhPipe=0)
# Degenerate: two ring entries, two buffer words, one validation tag, a one-way one-set LWH
# with a one-slot filter, 5-bit commit ids.
htm_config(htm_commit_unit one NETLIST_CYCLES 3000
  AddrW=2 DataW=1 CidW=5 SrcW=1 RingSize=2 BufWords=2 ValTags=1
  LwhSets=1 LwhWays=1 LwhBfHashes=1 LwhBfSlots=1 LwhScrubInterval=2 LwhPipe=0)
# The small unit with a write buffer of 24 words (not a power of two): the free list's pointers
# must wrap explicitly (every other configuration's wrap for free). NO_NETLIST as above.
htm_config(htm_commit_unit oddbuf NO_NETLIST
  AddrW=6 DataW=4 CidW=8 SrcW=2 RingSize=16 BufWords=24 ValTags=3
  LwhSets=4 LwhWays=2 LwhBfHashes=2 LwhBfSlots=4 LwhScrubInterval=4 LwhPipe=0)
# The small system-model machine's unit (machine/src/gpu/config.cc, `small`): a 32-entry ring
# and 256 buffer words with 10-bit commit ids, so that rings and ids wrap within a workload run.
# RTL in the loop of the small machine (htmsim run --config small --rtl, label cosim). 50 000
# cycles of bench, like the paper's unit (docs/coverage.md).
htm_config(htm_commit_unit machsmall LONG_SYNTH KEEP_MEMORIES NETLIST_CYCLES 3000
  AddrW=30 DataW=32 CidW=10 SrcW=2 RingSize=32 BufWords=256 ValTags=4
  LwhSets=16 LwhWays=2 LwhBfHashes=4 LwhBfSlots=32 LwhScrubInterval=4 LwhPipe=0)
# The small unit with the LWH result registered (the prototype's partitions, htm_sys_part):
# the hazard stage takes a cycle more, the pass pointer waits for it.
htm_config(htm_commit_unit pipe NETLIST_CYCLES 3000
  AddrW=6 DataW=4 CidW=8 SrcW=2 RingSize=16 BufWords=32 ValTags=3
  LwhSets=4 LwhWays=2 LwhBfHashes=2 LwhBfSlots=4 LwhScrubInterval=4 LwhPipe=1)

htm_block(htm_rct
  PORTS htm::golden::RctPorts
  BENCH htm::tb::RctBench
  BENCH_HEADER htm/tb/benches/rct_bench.h
  DEF golden/include/htm/golden/ports/htm_rct.def)

# Early conflict resolution's Reference Count Table: 3072 entries (1024 sets x 3 ways) of a
# 30-bit word address and two 5-bit counts (15 KB), messages of 8 deltas (32 bytes).
htm_config(htm_rct default KEEP_MEMORIES
  AddrW=30 Sets=1024 Ways=3 CountW=5 IncQueue=4 Batch=8 FlushCycles=16)
# Small: 4 sets of 2 ways fill at once, 2-bit counts saturate at 3, a queue of two.
htm_config(htm_rct small NETLIST_CYCLES 3000
  AddrW=8 Sets=4 Ways=2 CountW=2 IncQueue=2 Batch=3 FlushCycles=5)
# Degenerate: one entry, 1-bit counts, a queue of one, unbatched messages.
htm_config(htm_rct one NETLIST_CYCLES 3000
  AddrW=2 Sets=1 Ways=1 CountW=1 IncQueue=1 Batch=1 FlushCycles=1)
# Two sets (the initial clear's last set is the first after the one-set case) and a flush
# period of two cycles (the age counter's smallest non-trivial wrap). NO_NETLIST as above.
htm_config(htm_rct two NO_NETLIST
  AddrW=6 Sets=2 Ways=2 CountW=2 IncQueue=2 Batch=3 FlushCycles=2)
# The small system-model machine's RCT: 8 x 2 entries with 3-bit counts (tables that fill).
htm_config(htm_rct machsmall LONG_SYNTH NETLIST_CYCLES 3000
  AddrW=30 Sets=8 Ways=2 CountW=3 IncQueue=4 Batch=3 FlushCycles=5)

htm_block(htm_cat
  PORTS htm::golden::CatPorts
  BENCH htm::tb::CatBench
  BENCH_HEADER htm/tb/benches/cat_bench.h
  DEF golden/include/htm/golden/ports/htm_cat.def)

# Early conflict resolution's Conflict Address Table of a SIMT core: 3072 entries (1024 sets x
# 3 ways) of a 30-bit word address and two bits (12 KB), four lookup ports (a 32-lane warp in
# 8 cycles), messages of 8 deltas.
htm_config(htm_cat default LONG_NETLIST KEEP_MEMORIES
  AddrW=30 Sets=1024 Ways=3 NumPorts=4 WarpSize=32 Batch=8)
# Small: 4 sets of 2 ways fill at once; an 8-lane warp on 3 ports (groups of 3, 3, 2).
htm_config(htm_cat small NETLIST_CYCLES 3000
  AddrW=8 Sets=4 Ways=2 NumPorts=3 WarpSize=8 Batch=3)
# Degenerate: one entry, one lane, one port, unbatched messages.
htm_config(htm_cat one NETLIST_CYCLES 3000
  AddrW=2 Sets=1 Ways=1 NumPorts=1 WarpSize=1 Batch=1)
# Two sets: the initial clear's end after the second set (no other configuration has two).
# NO_NETLIST: the same RTL's netlist is tested in the other configurations.
htm_config(htm_cat two NO_NETLIST
  AddrW=8 Sets=2 Ways=2 NumPorts=3 WarpSize=8 Batch=3)
# The small system-model machine's CAT: 8 x 2 entries, a 32-lane warp on four ports.
htm_config(htm_cat machsmall LONG_SYNTH NETLIST_CYCLES 3000
  AddrW=30 Sets=8 Ways=2 NumPorts=4 WarpSize=32 Batch=3)

htm_block(htm_intra_warp_cd
  PORTS htm::golden::IntraWarpCdPorts
  BENCH htm::tb::IntraWarpCdBench
  BENCH_HEADER htm/tb/benches/intra_warp_cd_bench.h
  DEF golden/include/htm/golden/ports/htm_intra_warp_cd.def)

# WarpTM's intra-warp conflict detection: a 32-lane warp, the 4096-entry ownership table of the
# early-CR paper (Table 1), four banks (lanes per cycle, as the CAT's four ports).
htm_config(htm_intra_warp_cd default LONG_NETLIST LONG_SYNTH KEEP_MEMORIES
  AddrW=30 WarpSize=32 Entries=4096 Banks=4)
# Small: an 8-lane warp on a 16-entry table in two banks: aliasing and bank conflicts.
htm_config(htm_intra_warp_cd small NETLIST_CYCLES 3000 AddrW=8 WarpSize=8 Entries=16 Banks=2)
# Degenerate: one lane, a two-entry table, one bank.
htm_config(htm_intra_warp_cd one NETLIST_CYCLES 3000 AddrW=2 WarpSize=1 Entries=2 Banks=1)
# The small system-model machine's intra-warp detection: 64 entries in two banks.
htm_config(htm_intra_warp_cd machsmall LONG_SYNTH NETLIST_CYCLES 3000
  AddrW=30 WarpSize=32 Entries=64 Banks=2)

htm_block(htm_pag_check
  PORTS htm::golden::PagCheckPorts
  BENCH htm::tb::PagCheckBench
  BENCH_HEADER htm/tb/benches/pag_check_bench.h
  DEF golden/include/htm/golden/ports/htm_pag_check.def)

# Pause-and-Go check: a 32-lane warp with 30-bit word addresses (the CAT's lookup port).
htm_config(htm_pag_check default AddrW=30 WarpSize=32)
# Small: a 4-lane warp, every lane hitting often.
htm_config(htm_pag_check small AddrW=4 WarpSize=4)
# Degenerate: one lane (it never pauses), one address bit.
htm_config(htm_pag_check one AddrW=1 WarpSize=1)

htm_block(htm_tx_simt_stack
  PORTS htm::golden::TxSimtStackPorts
  BENCH htm::tb::TxSimtStackBench
  BENCH_HEADER htm/tb/benches/tx_simt_stack_bench.h
  DEF golden/include/htm/golden/ports/htm_tx_simt_stack.def)

# The transaction-aware SIMT stack of a 32-lane warp: 16 entries, 32-bit PCs, a 10-bit Log
# Index. router1 made no headway on its congestion after 20 CPU-minutes: routed with router2.
# Its Verilated gate netlist takes 16 CPU-minutes of C++ compilation, a third of make test's
# build: netlist-tested in the long flows (small and one in make test).
htm_config(htm_tx_simt_stack default LONG ROUTER router2
  WarpSize=32 Depth=16 PcW=32 LogW=10)
# Small: the eight threads of the paper's Figures 6 and 7, 6 entries (overflows happen).
htm_config(htm_tx_simt_stack small WarpSize=8 Depth=6 PcW=12 LogW=4)
# Degenerate: one lane and the three entries a transaction needs.
htm_config(htm_tx_simt_stack one WarpSize=1 Depth=3 PcW=4 LogW=1)

htm_block(htm_postdate
  PORTS htm::golden::PostdatePorts
  BENCH htm::tb::PostdateBench
  BENCH_HEADER htm/tb/benches/postdate_bench.h
  DEF golden/include/htm/golden/ports/htm_postdate.def)

# Snapshot isolation's post-dating unit at the paper's size (4.3): 1024 transaction slots,
# 24-bit logical timestamps, increment 10. Its netlist keeps the five 1024-word tables as
# arrays (as flip-flops they are 128 000 of them, minutes of C++ compilation).
htm_config(htm_postdate default KEEP_MEMORIES NumTx=1024 TsW=24 Inc=10)
# Small: five slots (not a power of two: slot numbers 5-7 are bad), 8-bit timestamps that
# overflow within a few hundred operations.
htm_config(htm_postdate small NumTx=5 TsW=8 Inc=10)
# Degenerate: two slots, 3-bit timestamps, increment 1 (midpoints run out of room at once).
htm_config(htm_postdate one NumTx=2 TsW=3 Inc=1)

htm_block(htm_writer_table
  PORTS htm::golden::WriterTablePorts
  BENCH htm::tb::WriterTableBench
  BENCH_HEADER htm/tb/benches/writer_table_bench.h
  DEF golden/include/htm/golden/ports/htm_writer_table.def)

# Snapshot isolation's Writer Table at the paper's size (4.3): 3000 entries of a 30-bit block
# address and a 10-bit writer, as 1000 sets of 3 ways (15 KB).
htm_config(htm_writer_table default KEEP_MEMORIES AddrW=30 TxW=10 Sets=1000 Ways=3)
# Small: 3 sets (not a power of two) of 2 ways fill at once; 3-bit transaction ids.
htm_config(htm_writer_table small AddrW=6 TxW=3 Sets=3 Ways=2)
# Degenerate: one entry.
htm_config(htm_writer_table one AddrW=1 TxW=1 Sets=1 Ways=1)
# Two sets: the initial clear's end is visible only with more than one set and fewer than
# three. NO_NETLIST: the same RTL's netlist is tested in the other configurations.
htm_config(htm_writer_table two NO_NETLIST AddrW=6 TxW=3 Sets=2 Ways=2)
# The small system-model machine's Writer Table: 128 sets of 3 ways.
htm_config(htm_writer_table machsmall LONG_SYNTH KEEP_MEMORIES AddrW=30 TxW=10 Sets=128 Ways=3)

htm_block(htm_reader_list
  PORTS htm::golden::ReaderListPorts
  BENCH htm::tb::ReaderListBench
  BENCH_HEADER htm/tb/benches/reader_list_bench.h
  DEF golden/include/htm/golden/ports/htm_reader_list.def)

# Snapshot isolation's Scalable Reader List at the paper's size (4.3): 87 856 entries of 69 bits
# (740 KB) as 21 964 sets of 4 ways, 1024 transactions in 32 leaves of 32. Its 6 Mbit table is
# larger than the largest ECP5's block RAM (3.7 Mbit): synthesized in make fpga, not placed.
# The clearing after reset takes 21 964 cycles, so the netlist test runs 60 000.
htm_config(htm_reader_list default LONG_SYNTH KEEP_MEMORIES CYCLES 400000 NETLIST_CYCLES 60000
  AddrW=30 TxW=10 LeafW=32 Sets=21964 Ways=4)
# The paper's entry on an ECP5-85: 16 384 entries (4 096 sets of 4 ways, 64 DP16KD), for Fmax.
htm_config(htm_reader_list fpga NO_NETLIST CYCLES 100000
  AddrW=30 TxW=10 LeafW=32 Sets=4096 Ways=4)
# Small: 16 transactions in four leaves of four, 3 sets (not a power of two) of 2 ways: leaf
# sets wrap around and conversions find them full.
htm_config(htm_reader_list small CYCLES 200000 NETLIST_CYCLES 20000 AddrW=5 TxW=4 LeafW=4 Sets=3 Ways=2)
# Degenerate: one set of three entries, four transactions in two leaves of two.
htm_config(htm_reader_list one CYCLES 200000 NETLIST_CYCLES 20000 AddrW=1 TxW=2 LeafW=2 Sets=1 Ways=3)
# Two sets: the initial clear's end after the second set (no other configuration has two).
# NO_NETLIST: the same RTL's netlist is tested in the other configurations.
htm_config(htm_reader_list two NO_NETLIST AddrW=5 TxW=4 LeafW=4 Sets=2 Ways=2)
# The small system-model machine's Reader List: 2048 sets of 4 ways (cleared in 2048 cycles after
# reset: the netlist test runs 6 000).
htm_config(htm_reader_list machsmall LONG_SYNTH KEEP_MEMORIES CYCLES 100000 NETLIST_CYCLES 6000
  AddrW=30 TxW=10 LeafW=32 Sets=2048 Ways=4)

htm_block(htm_version_index
  PORTS htm::golden::VersionIndexPorts
  BENCH htm::tb::VersionIndexBench
  BENCH_HEADER htm/tb/benches/version_index_bench.h
  DEF golden/include/htm/golden/ports/htm_version_index.def)

# Snapshot isolation's Version Index Table at the paper's size (4.3, Table 2): 42 regions of 8
# versions, 32-bit byte addresses and creation times, Figure 6's version stride of 0x10000,
# 10-bit reference counts (1024 transactions). Its gate netlist and its ECP5 synthesis (42
# regions compared at once) take minutes of Yosys: both in the long flows; small and one in
# make test. router2 converges on it (73 iterations, about 10 minutes with synthesis); router1
# takes far longer.
htm_config(htm_version_index default LONG KEEP_MEMORIES ROUTER router2 CYCLES 200000
  AddrW=32 TsW=32 Regions=42 Versions=8 StrideLog2=16 RefW=10)
# Small: three regions of three versions (not powers of two), 6-bit timestamps that overflow
# every few dozen publications, 2-bit reference counts that saturate.
htm_config(htm_version_index small CYCLES 200000 NETLIST_CYCLES 20000
  AddrW=16 TsW=6 Regions=3 Versions=3 StrideLog2=8 RefW=2)
# The small system-model machine's table (machine/src/gpu/config.cc): 8 regions of 3 versions
# (its 3 snapshot versions), 32-bit addresses and creation times, 2-bit counts (a reference per
# snapshot in use). The paper-size `default` is the default machine's.
htm_config(htm_version_index machsmall LONG_SYNTH CYCLES 100000 NETLIST_CYCLES 6000
  AddrW=32 TsW=32 Regions=8 Versions=3 StrideLog2=16 RefW=2)
# Degenerate: one region of two versions, 2-bit timestamps, 1-bit reference counts.
htm_config(htm_version_index one CYCLES 200000 NETLIST_CYCLES 20000
  AddrW=8 TsW=2 Regions=1 Versions=2 StrideLog2=3 RefW=1)

htm_block(htm_lds_wf_ctrl
  PORTS htm::golden::LdsWfCtrlPorts
  BENCH htm::tb::LdsWfCtrlBench
  BENCH_HEADER htm/tb/benches/lds_wf_ctrl_bench.h
  DEF golden/include/htm/golden/ports/htm_lds_wf_ctrl.def)

# GPU-LocalTM's wavefront of 64 work-items (thesis Table 5.6) under each of the four work-item
# selection policies of thesis 5.5; default is the basic single-ascending one.
htm_config(htm_lds_wf_ctrl default WfSize=64 Sel=LdsSelSingleAsc MaxDepth=15)
htm_config(htm_lds_wf_ctrl sdesc WfSize=64 Sel=LdsSelSingleDesc MaxDepth=15)
htm_config(htm_lds_wf_ctrl masc WfSize=64 Sel=LdsSelMultiAsc MaxDepth=15)
htm_config(htm_lds_wf_ctrl mdesc WfSize=64 Sel=LdsSelMultiDesc MaxDepth=15)
# Four work-items as in the thesis's tables: livelocks, WfS and WgS within a few tries.
htm_config(htm_lds_wf_ctrl small WfSize=4 Sel=LdsSelMultiAsc MaxDepth=2)
# Degenerate: one work-item, one nesting level.
htm_config(htm_lds_wf_ctrl one WfSize=1 Sel=LdsSelSingleDesc MaxDepth=1)

htm_block(htm_lds_wgs_arb
  PORTS htm::golden::LdsWgsArbPorts
  BENCH htm::tb::LdsWgsArbBench
  BENCH_HEADER htm/tb/benches/lds_wf_ctrl_bench.h
  DEF golden/include/htm/golden/ports/htm_lds_wgs_arb.def)

# The thesis's work-group of four wavefronts (Table 5.6); three (not a power of two); one.
htm_config(htm_lds_wgs_arb default NumWf=4)
htm_config(htm_lds_wgs_arb odd NumWf=3)
htm_config(htm_lds_wgs_arb one NumWf=1)

htm_block(htm_lds_bank
  PORTS htm::golden::LdsBankPorts
  BENCH htm::tb::LdsBankBench
  BENCH_HEADER htm/tb/benches/lds_bank_bench.h
  DEF golden/include/htm/golden/ports/htm_lds_bank.def)

# GPU-LocalTM's LDS bank at the thesis's size (Table 5.6: a 256-work-item work-group of four
# 64-work-item wavefronts; 128 user words per bank, 288 with the shadow area) in each of the
# four conflict-detection modes; default is the most complete, DCD + pRWsig + sWOsig. Their
# netlists keep the RAM as an array. The netlists (about 10 CPU-minutes of Yosys and C++ for
# default) and the synthesis (3 minutes for default) run with HTM_LONG (the small
# configurations cover every mode in make test).
htm_config(htm_lds_bank default LONG KEEP_MEMORIES
  Mode=LdsCdDcdPrwSwo BankWords=128 WgSize=256 WfSize=64)
htm_config(htm_lds_bank dcd LONG KEEP_MEMORIES Mode=LdsCdDcd BankWords=128 WgSize=256 WfSize=64)
htm_config(htm_lds_bank smdcd LONG KEEP_MEMORIES
  Mode=LdsCdSmdcd BankWords=128 WgSize=256 WfSize=64)
htm_config(htm_lds_bank prw LONG KEEP_MEMORIES
  Mode=LdsCdDcdPrw BankWords=128 WgSize=256 WfSize=64)
# Small: 16 words (k and k + 8 share a pRWsig bit), two wavefronts of four work-items, in the
# two modes with the richest tables.
htm_config(htm_lds_bank small Mode=LdsCdDcdPrwSwo BankWords=16 WgSize=8 WfSize=4)
htm_config(htm_lds_bank smallsm Mode=LdsCdSmdcd BankWords=16 WgSize=8 WfSize=4)
# Degenerate: four words (one owner word), one work-item in one wavefront.
htm_config(htm_lds_bank one Mode=LdsCdDcd BankWords=4 WgSize=1 WfSize=1)

htm_block(htm_lds_tm
  PORTS htm::golden::LdsTmPorts
  BENCH htm::tb::LdsTmBench
  BENCH_HEADER htm/tb/benches/lds_tm_bench.h
  DEF golden/include/htm/golden/ports/htm_lds_tm.def)

# GPU-LocalTM's LDS of a work-group at the thesis's size (Table 5.6): 32 banks of 128 user
# words, 256 work-items in four wavefronts of 64, DCD + pRWsig + sWOsig, single-ascending
# selection; two memory instructions in flight. 32 paper-size banks are about 760 000 LUT4:
# no netlist test, synthesis in make fpga only. Its Verilated model is 30 MB of C++ (about
# 3 CPU-minutes to compile); 20 000 cycles of lockstep in make test.
htm_config(htm_lds_tm default LONG_SYNTH NO_NETLIST CYCLES 20000
  Mode=LdsCdDcdPrwSwo Sel=LdsSelSingleAsc NumBanks=32 BankWords=128 WgSize=256 WfSize=64
  MaxDepth=15 NumBuf=2)
# Small work-groups on a few banks, one per detection mode and selection policy (each mode and
# each policy appears once): two wavefronts of four work-items on four banks of eight words;
# odd sizes: three wavefronts on two banks of 12 words (24 words: addresses out of range
# exist), one to four buffers, wavefronts of eight.
htm_config(htm_lds_tm small NETLIST_CYCLES 3000
  Mode=LdsCdDcdPrwSwo Sel=LdsSelMultiAsc NumBanks=4 BankWords=8 WgSize=8 WfSize=4
  MaxDepth=2 NumBuf=2)
htm_config(htm_lds_tm smallsm LONG_NETLIST NETLIST_CYCLES 3000
  Mode=LdsCdSmdcd Sel=LdsSelMultiDesc NumBanks=4 BankWords=8 WgSize=8 WfSize=4
  MaxDepth=2 NumBuf=3)
htm_config(htm_lds_tm smalldcd LONG_NETLIST NETLIST_CYCLES 3000
  Mode=LdsCdDcd Sel=LdsSelSingleDesc NumBanks=2 BankWords=12 WgSize=12 WfSize=4
  MaxDepth=1 NumBuf=1)
# smallprw's netlist (8 banks, 8 wavefronts: 16 CPU-minutes of Yosys and C++) runs with HTM_LONG.
htm_config(htm_lds_tm smallprw LONG_NETLIST LONG_SYNTH NETLIST_CYCLES 3000
  Mode=LdsCdDcdPrw Sel=LdsSelSingleAsc NumBanks=8 BankWords=4 WgSize=16 WfSize=8
  MaxDepth=3 NumBuf=4)
# Degenerate: one bank of four words, one work-item, one buffer.
htm_config(htm_lds_tm one NETLIST_CYCLES 3000
  Mode=LdsCdDcd Sel=LdsSelSingleAsc NumBanks=1 BankWords=4 WgSize=1 WfSize=1
  MaxDepth=1 NumBuf=1)

htm_block(htm_xbar
  PORTS htm::golden::XbarPorts
  BENCH htm::tb::XbarBench
  BENCH_HEADER htm/tb/benches/xbar_bench.h
  DEF golden/include/htm/golden/ports/htm_xbar.def)

# The prototype's request network: four SIMT cores to two memory partitions, 72-bit requests,
# a four-stage link, eight FIFO entries (at least Latency + 2: one message per cycle).
htm_config(htm_xbar default NumSrc=4 NumDst=2 DataW=72 Latency=4 FifoDepth=8 InDepth=0)
# Its reply network: two partitions to four cores, 40-bit replies.
htm_config(htm_xbar rev NumSrc=2 NumDst=4 DataW=40 Latency=4 FifoDepth=8 InDepth=0)
# Small: three by three (destination 3 does not exist), two FIFO entries for a two-stage link,
# so that FIFOs fill and credits run out often (half the full rate).
htm_config(htm_xbar small NETLIST_CYCLES 3000 NumSrc=3 NumDst=3 DataW=5 Latency=2 FifoDepth=2
  InDepth=0)
# Degenerate: one source, one destination, one bit, one stage, one entry.
htm_config(htm_xbar one NETLIST_CYCLES 3000 NumSrc=1 NumDst=1 DataW=1 Latency=1 FifoDepth=1
  InDepth=0)
# The two networks as rtl/sys/htm_sys.sv builds them: a two-entry input FIFO per source
# (req_ready_o from a register; one message per source per cycle, one cycle more latency).
htm_config(htm_xbar defaultin NumSrc=4 NumDst=2 DataW=72 Latency=4 FifoDepth=8 InDepth=2)
htm_config(htm_xbar revin NumSrc=2 NumDst=4 DataW=40 Latency=4 FifoDepth=8 InDepth=2)
# Degenerate input FIFOs of one entry: a source sends one message per two cycles, below its
# destination's rate of two per three (FifoDepth 2 for a one-stage link); three by three, so
# destination 3 does not exist.
htm_config(htm_xbar in1 NETLIST_CYCLES 3000 NumSrc=3 NumDst=3 DataW=5 Latency=1 FifoDepth=2
  InDepth=1)

htm_block(htm_sys_draw
  PORTS htm::golden::SysDrawPorts
  BENCH htm::tb::SysDrawBench
  BENCH_HEADER htm/tb/benches/sys_draw_bench.h
  DEF golden/include/htm/golden/ports/htm_sys_draw.def)

# The prototype's draw unit with an 8-bit tag (a core's {slot, lane, choice}).
htm_config(htm_sys_draw default NETLIST_CYCLES 3000 TagW=8)
# Degenerate: a one-bit tag.
htm_config(htm_sys_draw one NETLIST_CYCLES 3000 TagW=1)

htm_block(htm_sys_part
  PORTS htm::golden::SysPartPorts
  BENCH htm::tb::SysPartBench
  BENCH_HEADER htm/tb/benches/sys_part_bench.h
  DEF golden/include/htm/golden/ports/htm_sys_part.def)

# The prototype's memory partition (docs/htm_sys_part.md): two partitions of 4096 32-bit words
# (8192 words of global memory, 64-word stripes), four cores with 32 routes each, and the
# commit unit of the small machine (a 32-entry ring, 256 buffer words, 10-bit commit ids) with
# a 64 x 2 LWH and a 2 x 64 recency filter. The LWH scrubs at least every third cycle (not
# every 32nd): with 10-bit commit ids and 64 scrub steps only an interval of 3 or less keeps
# its age bound below 2^(CidW-1); a 14-bit id would make a request 68 bits wide. The netlist
# keeps its memories as arrays (the global memory and the unit's buffers as flip-flops would
# be hundreds of thousands of cells).
htm_config(htm_sys_part default LONG_SYNTH KEEP_MEMORIES NETLIST_CYCLES 3000
  NumParts=2 AddrW=13 DataW=32 IlvLog2=6 CoreW=2 RouteW=5
  CidW=10 RingSize=32 BufWords=256 ValTags=4
  LwhSets=64 LwhWays=2 LwhBfHashes=2 LwhBfSlots=64 LwhScrubInterval=3 LwhPipe=1)
# Small: 32 words per partition in 2-word stripes, 4-bit data, and the commit unit's `small`
# (16-entry ring, 32 buffer words, 8-bit commit ids): the ring, the buffer, the ids and the
# reply queues wrap and fill within hundreds of cycles.
htm_config(htm_sys_part small LONG_NETLIST NETLIST_CYCLES 3000
  NumParts=2 AddrW=6 DataW=4 IlvLog2=1 CoreW=2 RouteW=2
  CidW=8 RingSize=16 BufWords=32 ValTags=3
  LwhSets=4 LwhWays=2 LwhBfHashes=2 LwhBfSlots=4 LwhScrubInterval=4 LwhPipe=1)
# Degenerate: one partition of four 1-bit words, one-bit core and route, and the commit unit's
# `one` (two ring entries, two buffer words, one validation tag, a one-entry LWH).
htm_config(htm_sys_part one NETLIST_CYCLES 3000
  NumParts=1 AddrW=2 DataW=1 IlvLog2=0 CoreW=1 RouteW=1
  CidW=5 RingSize=2 BufWords=2 ValTags=1
  LwhSets=1 LwhWays=1 LwhBfHashes=1 LwhBfSlots=1 LwhScrubInterval=2 LwhPipe=0)

htm_block(htm_sys_core
  PORTS htm::golden::SysCorePorts
  BENCH htm::tb::SysCoreBench
  BENCH_HEADER htm/tb/benches/sys_core_bench.h
  DEF golden/include/htm/golden/ports/htm_sys_core.def)

# The prototype's SIMT core (docs/htm_sys_core.md): four cores of four warp slots of 8 lanes, two
# partitions of 4096 words in 64-word stripes, 10-bit commit ids (64-bit requests: the
# partition's `default`). Its bench runs whole workloads on a subsystem of golden models around
# it (about 300 000 cycles per second), so the cycles are some hundred runs. The netlists of
# `default` and `small` (the logs, choices and registers as flip-flops: 44 and 16 MB of
# Verilated C++) run in make regress; `one`'s in make test.
htm_config(htm_sys_core default LONG_SYNTH LONG_NETLIST CYCLES 600000 NETLIST_CYCLES 15000
  NumCores=4 NumWarps=4 WarpSize=8 NumParts=2 AddrW=13 IlvLog2=6 CidW=10
  MaxReads=8 MaxWrites=4 AllocRetry=8)
# Small: two cores of two slots of 4 lanes, 512 words in 4-word stripes, 8-bit commit ids; with a
# four-entry ring Allocs fail and are asked again after 3 cycles.
htm_config(htm_sys_core small LONG_NETLIST CYCLES 600000 NETLIST_CYCLES 15000
  NumCores=2 NumWarps=2 WarpSize=4 NumParts=2 AddrW=9 IlvLog2=2 CidW=8
  MaxReads=8 MaxWrites=4 AllocRetry=3)
# Degenerate: one core, one slot of one lane, one partition of 256 words; the fewest log rows
# the workloads need (ATM-P's 3 reads, HT-P's 4 writes).
htm_config(htm_sys_core one CYCLES 300000 NETLIST_CYCLES 100000
  NumCores=1 NumWarps=1 WarpSize=1 NumParts=1 AddrW=8 IlvLog2=0 CidW=6
  MaxReads=3 MaxWrites=4 AllocRetry=1)

htm_block(htm_sys_run
  PORTS htm::golden::SysRunPorts
  BENCH htm::tb::SysRunBench
  BENCH_HEADER htm/tb/benches/sys_run_bench.h
  DEF golden/include/htm/golden/ports/htm_sys_run.def)

# The prototype subsystem's run control (docs/htm_sys.md) for four cores and two partitions of
# 4096 words in 64-word stripes: the memory it initialises and checks is the whole 8192-word
# global memory of htm_sys_core's `default`. Its bench stands in for the partitions (random
# back-pressure, a read's word 2 to 4 cycles after the read is taken) and for the run (the final
# memory written at the start, correct or corrupted); about 1.7 million cycles per second, so
# the cycles are some thousand runs.
htm_config(htm_sys_run default LONG_NETLIST CYCLES 5000000 NETLIST_CYCLES 600000
  NumCores=4 NumParts=2 AddrW=13 IlvLog2=6 MaxReads=8 MaxWrites=4)
# Small: the 512 words of htm_sys_core's `small` in 4-word stripes, so that runs are short and
# many workloads are refused for their size.
htm_config(htm_sys_run small CYCLES 5000000 NETLIST_CYCLES 600000
  NumCores=2 NumParts=2 AddrW=9 IlvLog2=2 MaxReads=8 MaxWrites=4)
# Degenerate: one core, one partition of 256 words, the fewest log rows (ATM-P's 3 reads), so
# that EB-P's wide transactions are refused.
htm_config(htm_sys_run one CYCLES 5000000 NETLIST_CYCLES 600000
  NumCores=1 NumParts=1 AddrW=8 IlvLog2=0 MaxReads=3 MaxWrites=4)

htm_block(htm_sys
  PORTS htm::golden::SysPorts
  BENCH htm::tb::SysBench
  BENCH_HEADER htm/tb/benches/sys_bench.h
  DEF golden/include/htm/golden/ports/htm_sys.def)

# The prototype's subsystem (docs/htm_sys.md) in htm_sys_core's `default`: four cores of four
# warp slots of 8 lanes, two partitions of 4096 words, 10-bit commit ids, and the partitions'
# and crossbars' parameters htm_sys_core's bench runs it with (a 16-entry ring, 256 buffer words,
# a 64 x 2 LWH, four-stage crossbars of eight entries). The bench drives whole runs from the
# ports (about 70 000 cycles per second: the cycles are some ten runs). The netlists (25 MB of
# Verilated C++ already in `one`, the memories as flip-flops) run in make regress; the RTL
# lockstep of every configuration, and `one`'s ECP5 synthesis (under a minute) and area, run in
# make test (`default`'s and `small`'s syntheses in make fpga).
htm_config(htm_sys default LONG CYCLES 300000 NETLIST_CYCLES 15000
  NumCores=4 NumWarps=4 WarpSize=8 NumParts=2 AddrW=13 IlvLog2=6 CidW=10
  MaxReads=8 MaxWrites=4 AllocRetry=8
  RingSize=16 BufWords=256 ValTags=4 LwhSets=64 LwhWays=2 LwhBfHashes=2 LwhBfSlots=64
  LwhScrubInterval=3 XbarLatency=4 XbarFifoDepth=8)
# Small: htm_sys_core's `small` (two cores of two slots of 4 lanes, 512 words, 8-bit commit ids)
# with a four-entry ring (Allocs fail and retry), 32 buffer words and two-stage crossbars of two
# entries (credits run out).
htm_config(htm_sys small LONG_NETLIST CYCLES 600000 NETLIST_CYCLES 15000
  NumCores=2 NumWarps=2 WarpSize=4 NumParts=2 AddrW=9 IlvLog2=2 CidW=8
  MaxReads=8 MaxWrites=4 AllocRetry=3
  RingSize=4 BufWords=32 ValTags=3 LwhSets=4 LwhWays=2 LwhBfHashes=2 LwhBfSlots=4
  LwhScrubInterval=4 XbarLatency=2 XbarFifoDepth=2)
# Degenerate: htm_sys_core's `one` (one core of one lane, one partition of 256 words), a
# two-entry ring, eight buffer words, a one-entry LWH, one-stage crossbars of one entry.
htm_config(htm_sys one LONG_NETLIST CYCLES 1000000 NETLIST_CYCLES 100000
  NumCores=1 NumWarps=1 WarpSize=1 NumParts=1 AddrW=8 IlvLog2=0 CidW=6
  MaxReads=3 MaxWrites=4 AllocRetry=1
  RingSize=2 BufWords=8 ValTags=1 LwhSets=1 LwhWays=1 LwhBfHashes=1 LwhBfSlots=1
  LwhScrubInterval=2 XbarLatency=1 XbarFifoDepth=1)
# The one block whose netlist test is in the long flows only: its netlists are tens of MB of
# C++ even in `one` (docs/proto.md, "Next, in order"); its parts' netlists are in make test.
set(HTM_NETLIST_LONG_ONLY htm_sys)

htm_block(htm_uart_tx
  PORTS htm::golden::UartTxPorts
  BENCH htm::tb::UartTxBench
  BENCH_HEADER htm/tb/benches/uart_bench.h
  DEF golden/include/htm/golden/ports/htm_uart_tx.def)

# The board's UART: 115 200 baud at 100 MHz (868 cycles per bit; 400 000 cycles are 46 frames).
htm_config(htm_uart_tx default CYCLES 400000 NETLIST_CYCLES 40000 ClkPerBit=868)
# Eight cycles per bit: many frames per test, and the receiver's 12.5 % tolerance is one cycle.
htm_config(htm_uart_tx fast NETLIST_CYCLES 3000 ClkPerBit=8)
# Degenerate: the fewest cycles per bit the transmitter takes.
htm_config(htm_uart_tx one NETLIST_CYCLES 3000 ClkPerBit=2)

htm_block(htm_uart_rx
  PORTS htm::golden::UartRxPorts
  BENCH htm::tb::UartRxBench
  BENCH_HEADER htm/tb/benches/uart_bench.h
  DEF golden/include/htm/golden/ports/htm_uart_rx.def)

htm_config(htm_uart_rx default CYCLES 400000 NETLIST_CYCLES 40000 ClkPerBit=868)
htm_config(htm_uart_rx fast NETLIST_CYCLES 3000 ClkPerBit=8)
# Degenerate: the fewest cycles per bit the receiver takes (a sample two cycles into a bit).
htm_config(htm_uart_rx one NETLIST_CYCLES 3000 ClkPerBit=4)

htm_block(htm_proto_ctrl
  PORTS htm::golden::ProtoCtrlPorts
  BENCH htm::tb::ProtoCtrlBench
  BENCH_HEADER htm/tb/benches/proto_ctrl_bench.h
  DEF golden/include/htm/golden/ports/htm_proto_ctrl.def)

# The board's command interface (docs/htm_proto_ctrl.md) in front of htm_sys's `default`, at
# 100 MHz with a 1 ms timeout. The bench runs about 3 million cycles per second (its netlist
# about as fast); a timeout (a truncated frame, the drop after an unknown op) costs 100 000 of
# them, so those frames are rare here: the cycles are some 10 000 frames and 90 timeouts.
htm_config(htm_proto_ctrl default CYCLES 10000000 NETLIST_CYCLES 1000000
  NumCores=4 NumWarps=4 WarpSize=8 NumParts=2 AddrW=13 IlvLog2=6 CidW=10
  MaxReads=8 MaxWrites=4 AllocRetry=8
  RingSize=16 BufWords=256 ValTags=4 LwhSets=64 LwhWays=2 LwhBfHashes=2 LwhBfSlots=64
  LwhScrubInterval=3 XbarLatency=4 XbarFifoDepth=8 ClkKhz=100000 TimeoutCycles=100000)
# Small: htm_sys's `small` with a 64-cycle timeout, so that truncated frames and unknown ops
# are frequent.
htm_config(htm_proto_ctrl small CYCLES 5000000 NETLIST_CYCLES 300000
  NumCores=2 NumWarps=2 WarpSize=4 NumParts=2 AddrW=9 IlvLog2=2 CidW=8
  MaxReads=8 MaxWrites=4 AllocRetry=3
  RingSize=4 BufWords=32 ValTags=3 LwhSets=4 LwhWays=2 LwhBfHashes=2 LwhBfSlots=4
  LwhScrubInterval=4 XbarLatency=2 XbarFifoDepth=2 ClkKhz=50000 TimeoutCycles=64)
# Degenerate: htm_sys's `one` with the smallest timeout (a frame's bytes back to back; one idle
# cycle abandons it).
htm_config(htm_proto_ctrl one CYCLES 5000000 NETLIST_CYCLES 300000
  NumCores=1 NumWarps=1 WarpSize=1 NumParts=1 AddrW=8 IlvLog2=0 CidW=6
  MaxReads=3 MaxWrites=4 AllocRetry=1
  RingSize=2 BufWords=8 ValTags=1 LwhSets=1 LwhWays=1 LwhBfHashes=1 LwhBfSlots=1
  LwhScrubInterval=2 XbarLatency=1 XbarFifoDepth=1 ClkKhz=25000 TimeoutCycles=1)
