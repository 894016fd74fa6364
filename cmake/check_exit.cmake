# SPDX-License-Identifier: Apache-2.0
# Test: a command exits with a given status and says something on stderr that matches.
#   -DEXE=<program> -DARGS="<arguments>" -DRC=<expected status> -DREGEX=<stderr pattern>
separate_arguments(args UNIX_COMMAND "${ARGS}")
execute_process(COMMAND ${EXE} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL RC)
  message(FATAL_ERROR "${EXE} ${ARGS} exited ${rc}, not ${RC}:\n${out}${err}")
endif()
if(NOT err MATCHES "${REGEX}")
  message(FATAL_ERROR "${EXE} ${ARGS}: stderr does not match '${REGEX}':\n${err}")
endif()
message(STATUS "exit ${rc}: ${err}")
