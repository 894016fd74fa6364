# SPDX-License-Identifier: Apache-2.0
# Test (label cosim): the small machine's suite under one TM configuration with the Verilated
# models of every block in the loop, each beside its golden model, gives the golden suite's
# statistics and byte-identical commit logs (tools/compare_runs.py).
#   -DHTMSIM=<htmsim> -DPYTHON=<python3> -DCOMPARE=<tools/compare_runs.py> -DOUT=<dir>
#   -DTM=<configuration> [-DEXTRA="--netlist"] [-DWORKLOADS=<W,...>] [-DRTL=<block,...>]
# (RTL: the blocks in the loop, default all).
file(REMOVE_RECURSE ${OUT})
set(common suite --config small --scale small --tm ${TM} --no-lds --keep-logs --jobs 1)
if(WORKLOADS)
  list(APPEND common --workloads ${WORKLOADS})
endif()
execute_process(COMMAND ${HTMSIM} ${common} --out ${OUT}/golden
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the golden suite failed (${rc}):\n${out}${err}")
endif()
separate_arguments(extra UNIX_COMMAND "${EXTRA}")
if(NOT RTL)
  set(RTL all)
endif()
execute_process(COMMAND ${HTMSIM} ${common} --rtl ${RTL} ${extra} --out ${OUT}/rtl
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the suite with the Verilated models in the loop failed (${rc}):\n"
                      "${out}${err}")
endif()
execute_process(COMMAND ${PYTHON} ${COMPARE} ${OUT}/golden ${OUT}/rtl
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the runs differ from the golden ones:\n${out}${err}")
endif()
message(STATUS "${out}")
