// SPDX-License-Identifier: Apache-2.0
//
// The one RTL file list, in compilation order (package first). Every flow reads it: CMake
// (simulation, lint, netlist, formal, synthesis) and anyone running a tool by hand, e.g.
//   verilator --lint-only -Wall -Irtl/include -Ibuild/gen/rtl rtl/lint/verilator.vlt \
//     -f rtl/files.f --top-module htm_sig
// tools/check_filelist.py (test lint.filelist) fails when this list and rtl/ disagree.
rtl/htm_pkg.sv
rtl/prim/htm_fifo.sv
rtl/prim/htm_rr_arb.sv
rtl/prim/htm_ram_1r1w.sv
rtl/prim/htm_ram_sp.sv
rtl/htm_sig_hash.sv
rtl/htm_set_index.sv
rtl/htm_sig.sv
rtl/htm_sig_recency.sv
rtl/htm_sig_recency_ram.sv
rtl/htm_lwh.sv
rtl/htm_tcd.sv
rtl/htm_commit_unit.sv
rtl/htm_rct.sv
rtl/htm_cat.sv
rtl/htm_intra_warp_cd.sv
rtl/htm_pag_check.sv
rtl/htm_tx_simt_stack.sv
rtl/htm_postdate.sv
rtl/htm_writer_table.sv
rtl/htm_reader_list.sv
rtl/htm_version_index.sv
rtl/htm_lds_wf_ctrl.sv
rtl/htm_lds_wgs_arb.sv
rtl/htm_lds_bank.sv
rtl/htm_lds_tm.sv
rtl/sys/htm_sys_draw.sv
rtl/sys/htm_xbar.sv
rtl/sys/htm_sys_part.sv
rtl/sys/htm_sys_core.sv
rtl/sys/htm_sys_run.sv
rtl/sys/htm_sys.sv
rtl/proto/htm_uart_tx.sv
rtl/proto/htm_uart_rx.sv
rtl/proto/htm_ecp5_pll.sv
rtl/proto/htm_proto_ctrl.sv
rtl/proto/htm_proto_ulx3s.sv
