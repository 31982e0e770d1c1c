cmake_minimum_required(VERSION 3.20)
# Test (cmake -P): the installed tool runs from the prefix on its own: it
# needs no libcollcalc.so, `collcalc --version` names VERSION, and the
# README's headline example answers 175,000,000 bytes sent per GPU for the
# ring (JSON, whose field names scripts rely on).
# Inputs: PREFIX, BINDIR, VERSION, READELF.
set(tool ${PREFIX}/${BINDIR}/collcalc)
execute_process(COMMAND ${READELF} -d ${tool} OUTPUT_VARIABLE dynamic)
if(dynamic MATCHES "libcollcalc\\.so")
  message(FATAL_ERROR "${tool} needs libcollcalc.so; it must link the static library:\n${dynamic}")
endif()
unset(ENV{LD_LIBRARY_PATH})
execute_process(COMMAND ${tool} --version RESULT_VARIABLE rc OUTPUT_VARIABLE version ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT version MATCHES "^collcalc ${VERSION}\n$" OR NOT err STREQUAL "")
  message(FATAL_ERROR "collcalc --version: exit ${rc}, stdout '${version}', stderr '${err}'; "
                      "expected exit 0 and 'collcalc ${VERSION}'")
endif()
execute_process(COMMAND ${tool} allreduce --size 100MB --gpus 8 --link nvlink5 --algo ring --format json
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "\"bytes_sent_per_gpu\": *175000000[,}]")
  message(FATAL_ERROR "collcalc allreduce --size 100MB --gpus 8 --link nvlink5 --algo ring "
                      "--format json: exit ${rc}, expected bytes_sent_per_gpu 175000000\n${out}${err}")
endif()
message(STATUS "${tool} --version: ${version}")
