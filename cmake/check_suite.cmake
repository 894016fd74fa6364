# SPDX-License-Identifier: Apache-2.0
# Test: htmsim suite, shortened. A passing suite exits 0 and writes the report, its plots and the
# results; a suite with a failing run exits 1, still writes the report, and names the failure.
file(REMOVE_RECURSE ${OUT})
execute_process(COMMAND ${HTMSIM} suite --config small --scale small --jobs 2 --lds-benches VA
                        --out ${OUT}/pass
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "htmsim suite failed (${rc}):\n${out}${err}")
endif()
if(NOT out MATCHES "htmsim suite: ([0-9]+) of ([0-9]+) runs passed" OR
   NOT CMAKE_MATCH_1 EQUAL CMAKE_MATCH_2 OR CMAKE_MATCH_1 LESS 119)
  message(FATAL_ERROR "htmsim suite did not report every run (at least 119) passing:\n${out}")
endif()
set(runs ${CMAKE_MATCH_1})
file(READ ${OUT}/pass/report.md md)
foreach(want "## Early conflict resolution" "\\| HT1K \\| [0-9.]+x \\| [0-9.]+x \\| [0-9.]+x \\| [0-9.]+x \\|"
        "\\| BinTree \\| warptm-eapg \\| [0-9 ]+ \\| [0-9 ]+ \\|" "geometric mean" "Model speed over the suite"
        # the commit log was checked: its dependency edges are counted
        "\\| RBT180 \\| kilotm \\| [0-9 ]+ \\| [0-9 ]+ \\| [0-9 ]+ \\| [0-9 ]+ \\| [1-9][0-9 ]* \\| passed"
        "fig8_speedup.svg" "fig10_aborts.svg" "fig13_speedup.svg"
        "## Snapshot isolation" "\\| LinkedList1 \\| [0-9.]+x \\| [0-9.]+x \\| [0-9.]+x \\| [0-9.]+; [0-9.]+; [0-9.]+ \\|"
        # snapshot isolation's runs passed their log check too
        "\\| BinaryTree2 \\| sitm-oracle \\| [0-9 ]+ \\|[^\n]* passed"
        "\\| LinkedList2 \\| sitm \\| [0-9 ]+ \\|[^\n]* passed"
        # WarpTM's temporal conflict detection committed GraphCut's read-only tries at the cores
        "## WarpTM's temporal conflict detection" "\\| GraphCut1 \\| warptm \\| [0-9 ]+ \\| [1-9][0-9 ]* \\|"
        # the fine-grained-lock baseline ran where the workloads have one, and passed its check
        "## Against fine-grained locks" "\\| ATM10K \\| fgl \\| [0-9 ]+ \\|[^\n]* passed"
        # the GPU-LocalTM suite ran and its report is included
        "## GPU-LocalTM" "\\| VA-HC \\| [0-9]+ \\| [0-9.]+ \\|" "all passed")
  if(NOT md MATCHES "${want}")
    message(FATAL_ERROR "report.md lacks '${want}':\n${md}")
  endif()
endforeach()
if(NOT out MATCHES "GPU-LocalTM: ([0-9]+) of ([0-9]+) runs passed" OR NOT CMAKE_MATCH_1 EQUAL CMAKE_MATCH_2)
  message(FATAL_ERROR "htmsim suite did not report every GPU-LocalTM run passing:\n${out}")
endif()
if(NOT EXISTS ${OUT}/pass/lds_results.md OR NOT EXISTS ${OUT}/pass/lds_results.csv)
  message(FATAL_ERROR "the suite did not write lds_results.md and lds_results.csv")
endif()
foreach(f fig8_speedup.svg fig10_aborts.svg fig13_speedup.svg)
  file(READ ${OUT}/pass/${f} svg)
  if(NOT svg MATCHES "^<svg .*<rect .*</svg>\n$")
    message(FATAL_ERROR "${f} is not a complete SVG with bars")
  endif()
endforeach()
file(STRINGS ${OUT}/pass/results.jsonl lines)
list(LENGTH lines n)
if(NOT n EQUAL runs)
  message(FATAL_ERROR "results.jsonl has ${n} lines, not ${runs}")
endif()
file(GLOB left ${OUT}/pass/logs/*)
if(left)
  message(FATAL_ERROR "the suite left commit logs behind: ${left}")
endif()

# A run stopped by the cycle limit fails: exit 1, the report still written, the failure named.
execute_process(COMMAND ${HTMSIM} suite --config small --scale small --workloads HT1K
                        --tm warptm,kilotm --max-cycles 2000 --jobs 1 --out ${OUT}/fail
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "a suite with failing runs exited ${rc}, not 1:\n${out}${err}")
endif()
file(READ ${OUT}/fail/report.md md)
if(NOT md MATCHES "\\| HT1K \\| kilotm \\| [0-9 ]+ \\|.*\\*\\*FAILED\\*\\*")
  message(FATAL_ERROR "the report does not name the failing run:\n${md}")
endif()
message(STATUS "suite OK")
