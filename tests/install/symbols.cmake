cmake_minimum_required(VERSION 3.20)
# Test (cmake -P): the shared library exports the public API and nothing
# else. Fails, listing the offenders, when
#   - a defined dynamic symbol does not start with collcalc_ (a private
#     function that lost its hidden visibility, a leaked helper), or
#   - a function declared in include/collcalc/*.h is not exported (its
#     definition is hidden, so shared-library users cannot link it), or
#   - an exported collcalc_ symbol is not named in any public header
#     (exported by accident: an attribute or a pragma left open), or
#   - a function declared in a private header (src/*/*.h: the library's
#     own helpers, such as core's helpers.h) is exported, or a helper that
#     is not API (MUST_HIDE: allocation wrappers, echoes, did-you-mean) is
#     declared in a public header.
# Inputs: NM, LIBRARY, INCLUDE_DIR, SOURCE_DIR (the src/ tree), MUST_HIDE.
execute_process(COMMAND ${NM} -D --defined-only --format=posix ${LIBRARY}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NM} -D --defined-only ${LIBRARY} failed: ${err}")
endif()
string(REPLACE "\n" ";" lines "${out}")
set(exported "")
set(offenders "")
foreach(line ${lines})
  # Upper-case types are global (exported); lower-case ones are local to the
  # library even when listed (the linker's __start_/__stop_ section symbols
  # of sanitizer-coverage builds).
  if(line MATCHES "^([^ ]+) ([A-Z]) ")
    set(name ${CMAKE_MATCH_1})
    set(type ${CMAKE_MATCH_2})
    string(REGEX REPLACE "@.*$" "" name "${name}")
    list(APPEND exported ${name})
    if(NOT name MATCHES "^collcalc_")
      list(APPEND offenders "${name} (nm type ${type})")
    endif()
  endif()
endforeach()

# Functions the public headers declare: identifiers followed by "(" once
# comments and preprocessor lines are gone.
file(GLOB headers ${INCLUDE_DIR}/collcalc/*.h)
set(declared "")
set(named "")
foreach(header ${headers})
  file(READ ${header} text)
  string(REGEX REPLACE "/\\*([^*]|\\*+[^*/])*\\*+/" " " text "${text}")
  string(REGEX REPLACE "//[^\n]*" "" text "${text}")
  string(REGEX REPLACE "\\\\\n" " " text "${text}")
  string(REGEX REPLACE "(^|\n)[ \t]*#[^\n]*" "\n" text "${text}")
  string(REGEX MATCHALL "collcalc_[A-Za-z0-9_]+" identifiers "${text}")
  list(APPEND named ${identifiers})
  # "name(" but not "type (*pointer)(": a function pointer is no symbol.
  string(REGEX MATCHALL "collcalc_[A-Za-z0-9_]+[ \t\n]*\\([ \t\n]*[^* \t\n]" calls "${text}")
  foreach(call ${calls})
    string(REGEX REPLACE "[ \t\n]*\\([ \t\n]*.$" "" name "${call}")
    list(APPEND declared ${name})
  endforeach()
endforeach()
list(REMOVE_DUPLICATES declared)
set(hidden "")
foreach(name ${declared})
  if(NOT name IN_LIST exported)
    list(APPEND hidden ${name})
  endif()
endforeach()

set(unnamed "")
foreach(name ${exported})
  if(name MATCHES "^collcalc_" AND NOT name IN_LIST named)
    list(APPEND unnamed ${name})
  endif()
endforeach()

# Functions private headers declare: the same reading.
file(GLOB private_headers ${SOURCE_DIR}/*/*.h)
set(private "")
foreach(header ${private_headers})
  file(READ ${header} text)
  string(REGEX REPLACE "/\\*([^*]|\\*+[^*/])*\\*+/" " " text "${text}")
  string(REGEX REPLACE "(^|\n)[ \t]*#[^\n]*" "\n" text "${text}")
  string(REGEX MATCHALL "collcalc_[A-Za-z0-9_]+[ \t\n]*\\([ \t\n]*[^* \t\n]" calls "${text}")
  foreach(call ${calls})
    string(REGEX REPLACE "[ \t\n]*\\([ \t\n]*.$" "" name "${call}")
    if(name IN_LIST exported AND NOT name IN_LIST named) # (a public header's name is API)
      get_filename_component(where ${header} NAME)
      list(APPEND private "${name} (${where})")
    endif()
  endforeach()
endforeach()
set(public_helpers "")
foreach(name ${MUST_HIDE})
  if(name IN_LIST named)
    list(APPEND public_helpers ${name})
  endif()
  if(name IN_LIST exported)
    list(APPEND private "${name} (not API)")
  endif()
endforeach()
list(REMOVE_DUPLICATES private)

list(LENGTH exported exported_count)
list(LENGTH declared declared_count)
set(problems "")
if(offenders)
  list(JOIN offenders "\n  " text)
  string(APPEND problems "exported without the collcalc_ prefix (make them static or give "
                         "them hidden visibility):\n  ${text}\n")
endif()
if(hidden)
  list(JOIN hidden "\n  " text)
  string(APPEND problems "declared in include/collcalc/ but not exported by ${LIBRARY}:\n  ${text}\n")
endif()
if(unnamed)
  list(JOIN unnamed "\n  " text)
  string(APPEND problems "exported by ${LIBRARY} but named in no public header:\n  ${text}\n")
endif()
if(private)
  list(JOIN private "\n  " text)
  string(APPEND problems "the library's own helpers exported by ${LIBRARY} (declare them in "
                         "a private header, not in include/collcalc/):\n  ${text}\n")
endif()
if(public_helpers)
  list(JOIN public_helpers "\n  " text)
  string(APPEND problems "helpers that are not API declared in include/collcalc/ (they "
                         "belong in src/core/helpers.h):\n  ${text}\n")
endif()
if(problems)
  message(FATAL_ERROR "${problems}")
endif()
if(declared_count EQUAL 0)
  message(FATAL_ERROR "no function declarations found in ${INCLUDE_DIR}/collcalc/*.h")
endif()
message(STATUS "${exported_count} symbols exported, all collcalc_*; "
               "all ${declared_count} functions the public headers declare among them")
