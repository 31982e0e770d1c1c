cmake_minimum_required(VERSION 3.20)
# Test (cmake -P): the installed Python module finds the installed shared
# library on its own (no COLLCALC_LIBRARY, no LD_LIBRARY_PATH, run from
# another directory) and answers the README's headline question: 175,000,000
# bytes sent per GPU for the ring. Inputs: PYTHON, PREFIX, PYTHONDIR, WORK_DIR.
if(IS_ABSOLUTE "${PYTHONDIR}")
  set(dir ${PYTHONDIR})
else()
  set(dir ${PREFIX}/${PYTHONDIR})
endif()
if(NOT EXISTS ${dir}/collcalc.py)
  message(FATAL_ERROR "the Python module is not installed: no ${dir}/collcalc.py")
endif()
file(MAKE_DIRECTORY ${WORK_DIR})
unset(ENV{COLLCALC_LIBRARY})
unset(ENV{LD_LIBRARY_PATH})
set(ENV{PYTHONPATH} ${dir})
set(script [=[
import collcalc
doc = collcalc.ask(["allreduce", "--size", "100MB", "--gpus", "8", "--link", "nvlink5", "--algo", "ring"])
ring = doc["results"][0]
assert ring["algorithm"] == "ring" and ring["bytes_sent_per_gpu"] == 175000000, ring
try:
    collcalc.ask(["allreduce", "--size", "1XB", "--gpus", "8", "--link", "nvlink5"])
    raise SystemExit("a bad size raised nothing")
except collcalc.CollcalcError as error:
    assert error.exit_code == 2 and "--size" in error.message, (error.exit_code, error.message)
print(collcalc.library_path())
]=])
execute_process(COMMAND ${PYTHON} -c "${script}" WORKING_DIRECTORY ${WORK_DIR}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the installed module (${dir}/collcalc.py): exit ${rc}\n${out}${err}")
endif()
string(STRIP "${out}" out)
if(NOT out MATCHES "^${PREFIX}/")
  message(FATAL_ERROR "the installed module loaded ${out}, not the library under ${PREFIX}")
endif()
message(STATUS "the installed module answers through ${out}")
