# SPDX-License-Identifier: Apache-2.0
#
# Reads the one RTL file list (rtl/files.f) for every flow.
#   HTM_RTL_FILES       absolute paths, compilation order
#   HTM_RTL_FILES_REL   the same, relative to the source tree (for Yosys scripts)
#   HTM_RTL_INCLUDE_DIRS, HTM_YOSYS_INCLUDES, HTM_RTL_VLT, HTM_RTL_INCLUDES_ALL

file(STRINGS ${CMAKE_SOURCE_DIR}/rtl/files.f _lines)
set(HTM_RTL_FILES "")
set(HTM_RTL_FILES_REL "")
foreach(line IN LISTS _lines)
  string(STRIP "${line}" line)
  if(line STREQUAL "" OR line MATCHES "^//")
    continue()
  endif()
  if(NOT EXISTS ${CMAKE_SOURCE_DIR}/${line})
    message(FATAL_ERROR "rtl/files.f lists ${line}, which does not exist")
  endif()
  list(APPEND HTM_RTL_FILES ${CMAKE_SOURCE_DIR}/${line})
  list(APPEND HTM_RTL_FILES_REL ${line})
endforeach()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/rtl/files.f)

set(HTM_RTL_INCLUDE_DIRS ${CMAKE_SOURCE_DIR}/rtl/include ${HTM_GEN_DIR}/rtl)
file(RELATIVE_PATH _gen_rel ${CMAKE_SOURCE_DIR} ${HTM_GEN_DIR}/rtl)
set(HTM_YOSYS_INCLUDES "-I rtl/include -I ${_gen_rel}")
set(HTM_RTL_VLT ${CMAKE_SOURCE_DIR}/rtl/lint/verilator.vlt)
file(GLOB HTM_RTL_INCLUDES_ALL ${CMAKE_SOURCE_DIR}/rtl/include/*.svh)
list(APPEND HTM_RTL_INCLUDES_ALL ${HTM_GEN_DIR}/rtl/htm_enums.svh ${HTM_GEN_DIR}/rtl/htm_sig_masks.svh)
