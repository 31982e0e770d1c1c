cmake_minimum_required(VERSION 3.20)
# Test (cmake -P): configures, builds and runs tests/install/consumer/, a
# separate CMake project that finds the installed package with
# find_package(collcalc REQUIRED) and links collcalc::collcalc (shared) and
# collcalc::collcalc_static. Inputs: CMAKE_COMMAND_PATH, CC, CONSUMER_FLAGS
# (;-list), PREFIX, SOURCE_DIR (tests/install/consumer), WORK_DIR, VERSION, GENERATOR.
file(REMOVE_RECURSE ${WORK_DIR})
list(JOIN CONSUMER_FLAGS " " flags)
execute_process(COMMAND ${CMAKE_COMMAND_PATH} -S ${SOURCE_DIR} -B ${WORK_DIR} -G ${GENERATOR}
                        -DCMAKE_C_COMPILER=${CC} -DCMAKE_PREFIX_PATH=${PREFIX}
                        -DCMAKE_BUILD_TYPE=Release
                        "-DCMAKE_C_FLAGS=${flags}" "-DCMAKE_EXE_LINKER_FLAGS=${flags}"
                        -DCOLLCALC_PREFIX=${PREFIX} -DEXPECTED_VERSION=${VERSION}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring the find_package consumer failed:\n${out}${err}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND_PATH} --build ${WORK_DIR}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building the find_package consumer failed:\n${out}${err}")
endif()
unset(ENV{LD_LIBRARY_PATH})
foreach(exe consumer_shared consumer_static)
  execute_process(COMMAND ${WORK_DIR}/${exe} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message(STATUS "${exe}: ${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${exe} (find_package build) exited ${rc}:\n${out}${err}")
  endif()
endforeach()
