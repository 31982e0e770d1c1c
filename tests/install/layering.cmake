cmake_minimum_required(VERSION 3.20)
# Test (cmake -P): the build refuses a layer violation. For one layer,
# preprocesses probe files with exactly the include directories that layer
# is compiled with (collcalc_layer_include_dirs in CMakeLists.txt, passed in
# as INCLUDE_DIRS) and checks that
#   - every private header of the layer's allowed directories is found
#     (the probe itself works), and
#   - every private header of any other layer (src/<other>/*.h) is not:
#     the probe's own #include fails with "No such file" (gcc) / "file not
#     found" (clang), so such an #include cannot compile.
# A header whose bare name also exists in an allowed directory resolves to
# that one and is skipped. MUST_REFUSE names headers the probe must have
# refused, when they exist. TARGET_DIRS, when given, is the INCLUDE_DIRECTORIES
# property of the layer's target (with its dependencies' directories): its
# source-tree entries must be INCLUDE_DIRS, and the probes use all of it. Inputs: CC, SOURCE_DIR, WORK_DIR, LAYER, INCLUDE_DIRS,
# ALLOWED_DIRS, ALL_DIRS, MUST_REFUSE, TARGET_DIRS.
file(MAKE_DIRECTORY ${WORK_DIR})
if(DEFINED TARGET_DIRS)
  # The target also sees its dependencies' directories (cJSON's): only the
  # ones inside the source tree must match. The probes then use them all.
  set(expected ${INCLUDE_DIRS})
  set(actual "")
  foreach(dir ${TARGET_DIRS})
    string(FIND "${dir}/" "${SOURCE_DIR}/" at)
    if(at EQUAL 0)
      list(APPEND actual ${dir})
    endif()
  endforeach()
  list(REMOVE_DUPLICATES actual)
  list(SORT expected)
  list(SORT actual)
  if(NOT expected STREQUAL actual)
    message(FATAL_ERROR "target collcalc_${LAYER} is compiled with the source-tree include "
                        "directories '${actual}', not the layer's '${expected}' "
                        "(COLLCALC_LAYER_INCLUDES_${LAYER} in CMakeLists.txt)")
  endif()
  set(INCLUDE_DIRS ${TARGET_DIRS})
endif()
set(flags "")
foreach(dir ${INCLUDE_DIRS})
  list(APPEND flags -I${dir})
endforeach()

# probe(HEADER OUT_RC OUT_TEXT): preprocesses '#include "HEADER"'.
function(probe header out_rc out_text)
  string(MAKE_C_IDENTIFIER ${header} id)
  set(source ${WORK_DIR}/${LAYER}_${id}.c)
  file(WRITE ${source} "/* probe: the ${LAYER} layer includes ${header} */\n#include \"${header}\"\n")
  execute_process(COMMAND ${CC} -std=c11 -E ${flags} ${source} -o ${WORK_DIR}/${LAYER}_${id}.i
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(${out_rc} ${rc} PARENT_SCOPE)
  set(${out_text} "${out}${err}" PARENT_SCOPE)
endfunction()

set(allowed_names "")
set(problems "")
set(found 0)
foreach(dir ${ALLOWED_DIRS})
  file(GLOB headers RELATIVE ${SOURCE_DIR}/src/${dir} ${SOURCE_DIR}/src/${dir}/*.h)
  foreach(header ${headers})
    list(APPEND allowed_names ${header})
    probe(${header} rc text)
    if(NOT rc EQUAL 0)
      list(APPEND problems "src/${dir}/${header} should be visible to ${LAYER} but is not:\n${text}")
    else()
      math(EXPR found "${found} + 1")
    endif()
  endforeach()
endforeach()

set(refused 0)
set(refused_names "")
foreach(dir ${ALL_DIRS})
  if(dir IN_LIST ALLOWED_DIRS)
    continue()
  endif()
  file(GLOB headers RELATIVE ${SOURCE_DIR}/src/${dir} ${SOURCE_DIR}/src/${dir}/*.h)
  foreach(header ${headers})
    if(header IN_LIST allowed_names)
      continue()
    endif()
    probe(${header} rc text)
    # The probe's own #include (line 2) must be the one that fails: a header
    # that is found but fails on a nested include is still within reach.
    string(MAKE_C_IDENTIFIER ${header} id)
    string(REPLACE "." "\\." quoted "${header}")
    set(refusal "${LAYER}_${id}\\.c:2:[0-9]+: (fatal )?error: ('${quoted}' file not found|${quoted}: No such file)")
    if(rc EQUAL 0)
      list(APPEND problems "${LAYER} can include src/${dir}/${header}: a layer violation would compile")
    elseif(NOT text MATCHES "${refusal}")
      list(APPEND problems "probe of src/${dir}/${header} failed for another reason:\n${text}")
    else()
      math(EXPR refused "${refused} + 1")
      list(APPEND refused_names ${header})
    endif()
  endforeach()
endforeach()

foreach(header ${MUST_REFUSE})
  file(GLOB exists ${SOURCE_DIR}/src/*/${header})
  if(exists AND NOT header IN_LIST refused_names)
    list(APPEND problems "${LAYER} was expected to refuse ${header}")
  endif()
endforeach()
if(problems)
  list(JOIN problems "\n" text)
  message(FATAL_ERROR "layer ${LAYER} (-I: ${INCLUDE_DIRS}):\n${text}")
endif()
list(JOIN ALLOWED_DIRS ", " allowed_text)
message(STATUS "${LAYER} (src/${allowed_text}): ${found} own headers found, "
               "${refused} headers of other layers refused")
