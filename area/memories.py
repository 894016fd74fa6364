#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""What the area flow treats as a storage array (a RAM macro, estimated with CACTI) and what as
standard-cell logic (flip-flops and gates, mapped with Yosys to a cell library).

Yosys turns every unpacked array of the RTL into a memory cell ($mem_v2) at `memory -nomap`
unless the RTL reads all of its entries at once (then it becomes a list of registers: a
flip-flop array, which is logic). A memory cell is a macro when it is large enough for CACTI to
model it; smaller ones are mapped to flip-flops with the rest of the logic. Both the array flow
(area/arrays.py) and the logic flow (area/logic.py) use this one rule, so that every bit of
state is counted once.
"""

# CACTI refuses arrays under 64 bytes, and a RAM of a few rows is flip-flops in practice.
# CACTI's RAM is at least one mat of 2 x 2 subarrays of 16 rows or more (MINSUBARRAYROWS)
# with at least one word of the bus per row: with the bus as wide as the entry (one access,
# one entry) it finds no organisation for fewer than about 31 entries (area/cacti.py).
MIN_MACRO_ENTRIES = 32
MIN_MACRO_BITS = 64 * 8


def is_macro(entries: int, width: int) -> bool:
    """Whether a memory of `entries` rows of `width` bits is a RAM macro (CACTI) rather than
    flip-flops (standard cells)."""
    return entries >= MIN_MACRO_ENTRIES and entries * width >= MIN_MACRO_BITS
