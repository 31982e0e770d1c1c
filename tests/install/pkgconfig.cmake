cmake_minimum_required(VERSION 3.20)
# Test (cmake -P): compiles tests/install/consumer.c against the installed
# prefix with nothing but pkg-config's flags, and runs it.
#   MODE=shared  cc consumer.c $(pkg-config --cflags --libs collcalc) + rpath;
#                the program must need libcollcalc.so.MAJOR.
#   MODE=static  cc consumer.c $(pkg-config --static --cflags --libs collcalc)
#                with libcollcalc.a chosen over the .so; the program must not
#                need libcollcalc.so and runs without any library path.
# Inputs: MODE, PKG_CONFIG, CC, CONSUMER_FLAGS (;-list), PREFIX, LIBDIR,
# INCLUDEDIR, SOURCE, WORK_DIR, VERSION, MAJOR, READELF.
file(MAKE_DIRECTORY ${WORK_DIR})
set(ENV{PKG_CONFIG_PATH} ${PREFIX}/${LIBDIR}/pkgconfig)
execute_process(COMMAND ${PKG_CONFIG} --modversion collcalc
                RESULT_VARIABLE rc OUTPUT_VARIABLE modversion ERROR_VARIABLE err
                OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT rc EQUAL 0 OR NOT modversion STREQUAL VERSION)
  message(FATAL_ERROR "pkg-config --modversion collcalc: '${modversion}' (${err}), expected ${VERSION}")
endif()
set(static_flag "")
if(MODE STREQUAL "static")
  set(static_flag --static)
endif()
execute_process(COMMAND ${PKG_CONFIG} ${static_flag} --cflags --libs collcalc
                RESULT_VARIABLE rc OUTPUT_VARIABLE flags ERROR_VARIABLE err
                OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "pkg-config ${static_flag} --cflags --libs collcalc failed: ${err}")
endif()
message(STATUS "pkg-config ${static_flag} --cflags --libs collcalc: ${flags}")
separate_arguments(flag_list UNIX_COMMAND "${flags}")
if(NOT "-I${PREFIX}/${INCLUDEDIR}" IN_LIST flag_list OR NOT "-L${PREFIX}/${LIBDIR}" IN_LIST flag_list
   OR NOT "-lcollcalc" IN_LIST flag_list)
  message(FATAL_ERROR "collcalc.pc does not point into ${PREFIX}: ${flags}")
endif()

set(exe ${WORK_DIR}/consumer_${MODE})
if(MODE STREQUAL "static")
  if(NOT "-lcjson" IN_LIST flag_list OR NOT "-lm" IN_LIST flag_list)
    message(FATAL_ERROR "--static must add cJSON (Requires.private) and -lm (Libs.private): ${flags}")
  endif()
  # The linker prefers the .so next to the .a: name the archive.
  list(TRANSFORM flag_list REPLACE "^-lcollcalc$" "-l:libcollcalc.a")
else()
  list(APPEND flag_list "-Wl,-rpath,${PREFIX}/${LIBDIR}")
endif()
file(REMOVE ${exe})
execute_process(COMMAND ${CC} -std=c11 -Wall -Wextra -Wpedantic -Werror ${CONSUMER_FLAGS}
                        ${SOURCE} ${flag_list} -o ${exe}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "compiling ${SOURCE} with pkg-config's flags failed:\n${out}${err}")
endif()

execute_process(COMMAND ${READELF} -d ${exe} RESULT_VARIABLE rc OUTPUT_VARIABLE dynamic)
string(FIND "${dynamic}" "[libcollcalc.so.${MAJOR}]" needed)
if(MODE STREQUAL "shared" AND needed EQUAL -1)
  message(FATAL_ERROR "${exe} does not need libcollcalc.so.${MAJOR}:\n${dynamic}")
elseif(MODE STREQUAL "static" AND NOT needed EQUAL -1)
  message(FATAL_ERROR "${exe} needs libcollcalc.so although linked with --static:\n${dynamic}")
endif()

unset(ENV{LD_LIBRARY_PATH})
execute_process(COMMAND ${exe} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message(STATUS "${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${exe} exited ${rc}:\n${out}${err}")
endif()
