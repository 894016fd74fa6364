// SPDX-License-Identifier: Apache-2.0
//
// htm_pkg: the project's one package. Shared enumerations and the H3 mask table come from
// generated include files (tools/htm_gen.py, from rtl/include/htm_enums.def), so the C++ golden
// model sees exactly the same definitions. Always refer to items by qualified name
// (htm_pkg::SigHashH3); `import` is not used anywhere (Yosys cannot parse it).
package htm_pkg;

  // ---------------------------------------------------------------------------------------------
  // Shared enumerations (generated)
  // ---------------------------------------------------------------------------------------------
  `include "htm_enums.svh"

  // ---------------------------------------------------------------------------------------------
  // Signature hash masks (generated; see docs/htm_sig.md)
  // ---------------------------------------------------------------------------------------------
  `include "htm_sig_masks.svh"

  // ---------------------------------------------------------------------------------------------
  // Elaboration-time helpers
  // ---------------------------------------------------------------------------------------------

  // Width of an index into n entries; at least 1 so that a 1-entry structure still has a port.
  function automatic int unsigned idx_width(input int unsigned n);
    idx_width = (n > 1) ? $clog2(n) : 1;
  endfunction

  // 1 when n is a power of two (1 counts as 2**0).
  function automatic bit is_pow2(input int unsigned n);
    is_pow2 = (n != 0) && ((n & (n - 1)) == 0);
  endfunction

endpackage
