cmake_minimum_required(VERSION 3.20)
# Test (cmake -P): calls go down the layers only. The include-directory
# rule (layering.cmake) keeps a layer from including another's private
# headers, but every layer may include every public header, so it cannot
# see a lower layer calling a function of a higher one (data calling the
# NCCL model, say). This test reads the symbols of each layer's objects
# with nm and fails, naming the object, the symbol and the layer that
# defines it, when an object calls a function (or uses a variable) that an
# object of a layer of the same or a higher rank defines.
# Inputs: NM; OBJECTS_FILE, a CMake script (written by file(GENERATE)) that
# sets LAYERS (the layer of each object target, in target order) and
# OBJECTS_<i> (target i's objects); RANKS, a list of layer=rank.
include(${OBJECTS_FILE})

foreach(entry ${RANKS})
  string(REPLACE "=" ";" pair "${entry}")
  list(GET pair 0 layer)
  list(GET pair 1 rank)
  set(rank_${layer} ${rank})
endforeach()

# sym_<name>: the layer defining a symbol; calls: "object|symbol|layer".
set(calls "")
set(problems "")
set(object_count 0)
set(index 0)
foreach(layer ${LAYERS})
  if(NOT DEFINED rank_${layer})
    string(APPEND problems "layer '${layer}' has no rank: add it to COLLCALC_LAYER_RANKS in CMakeLists.txt\n")
  endif()
  set(objects ${OBJECTS_${index}})
  math(EXPR index "${index} + 1")
  if(NOT objects)
    continue()
  endif()
  list(LENGTH objects count)
  math(EXPR object_count "${object_count} + ${count}")
  execute_process(COMMAND ${NM} -A --format=posix ${objects}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${NM} failed on the ${layer} objects: ${err}")
  endif()
  string(REPLACE "\n" ";" lines "${out}")
  foreach(line ${lines})
    if(NOT line MATCHES "^(.*\\.o): ([A-Za-z_][A-Za-z0-9_.]*) ([A-Za-z])")
      continue()
    endif()
    set(object ${CMAKE_MATCH_1})
    set(symbol ${CMAKE_MATCH_2})
    set(type ${CMAKE_MATCH_3})
    if(type STREQUAL "U")
      list(APPEND calls "${object}|${symbol}|${layer}")
    elseif(type MATCHES "^[A-TV-Z]$") # defined and global (lower case: local)
      if(DEFINED sym_${symbol} AND NOT sym_${symbol} STREQUAL layer)
        string(APPEND problems "${symbol} is defined by both ${sym_${symbol}} and ${layer}\n")
      endif()
      set(sym_${symbol} ${layer})
    endif()
  endforeach()
endforeach()
if(object_count EQUAL 0)
  message(FATAL_ERROR "no objects found in ${OBJECTS_FILE}")
endif()

set(checked 0)
foreach(call ${calls})
  string(REPLACE "|" ";" parts "${call}")
  list(GET parts 0 object)
  list(GET parts 1 symbol)
  list(GET parts 2 layer)
  if(NOT DEFINED sym_${symbol}) # libc, libm, cJSON
    continue()
  endif()
  set(callee ${sym_${symbol}})
  if(callee STREQUAL layer)
    continue()
  endif()
  math(EXPR checked "${checked} + 1")
  if(NOT rank_${callee} LESS rank_${layer})
    get_filename_component(name ${object} NAME)
    string(REGEX REPLACE "\\.o$" "" name "${name}")
    string(APPEND problems "${layer} (${name}) calls ${symbol} of ${callee}, "
                           "which is not below it\n")
  endif()
endforeach()

if(problems)
  list(JOIN RANKS " " ranks)
  message(FATAL_ERROR "calls against the layering (a layer calls only layers of a lower "
                      "rank: ${ranks}):\n${problems}")
endif()
message(STATUS "${object_count} objects, ${checked} calls between layers, all downwards")
