# SPDX-License-Identifier: Apache-2.0
# Test: htmsim without htmsim-rtl beside it refuses a command that needs the Verilated models:
# exit 2, and a message naming the target to build.
#   -DHTMSIM=<htmsim> -DARGS="<command line>" -DOUT=<dir>
string(MAKE_C_IDENTIFIER "${ARGS}" name)
set(dir ${OUT}/${name})
file(REMOVE_RECURSE ${dir})
file(MAKE_DIRECTORY ${dir})
file(COPY_FILE ${HTMSIM} ${dir}/htmsim)
file(CHMOD ${dir}/htmsim PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
separate_arguments(args UNIX_COMMAND "${ARGS}")
execute_process(COMMAND ${dir}/htmsim ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "htmsim ${ARGS} alone exited ${rc}, not 2:\n${out}${err}")
endif()
if(NOT err MATCHES "needs the Verilated models(.|\n)*the target htmsim-rtl")
  message(FATAL_ERROR "htmsim ${ARGS} alone does not name the target to build:\n${err}")
endif()
message(STATUS "refused: ${err}")
