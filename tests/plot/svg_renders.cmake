# A chart written with --svg draws in a real renderer (rsvg-convert, Debian's
# librsvg2-bin): each command that charts writes an SVG, rsvg-convert turns
# it into a PNG without complaint, and the PNG is a real picture of the
# requested size (not an empty canvas: a blank PNG of that size is far
# smaller). Run by ctest with -DCOLLCALC=... -DRSVG=... -DOUT=... -DSRC=...
foreach(case sweep compare check)
  set(svg ${OUT}/chart_${case}.svg)
  set(png ${OUT}/chart_${case}.png)
  if(case STREQUAL sweep)
    set(args sweep allreduce --gpus 8 --link nvlink4 -b 1K -e 1G --svg ${svg})
  elseif(case STREQUAL compare)
    set(args compare allreduce --gpus 64 --link ib-ndr --svg ${svg})
  else()
    set(args check ${SRC}/examples/nccl_allreduce_h100_2node.txt --platform hgx-h100 --nodes 2
             --svg ${svg})
  endif()
  execute_process(COMMAND ${COLLCALC} ${args} RESULT_VARIABLE rc OUTPUT_QUIET
                  ERROR_VARIABLE err WORKING_DIRECTORY ${SRC})
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "collcalc ${case} --svg failed (${rc}): ${err}")
  endif()
  file(READ ${svg} text)
  foreach(needle "<svg" "</svg>" "<title>" "message size" "<polyline")
    string(FIND "${text}" "${needle}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "${svg} has no ${needle}")
    endif()
  endforeach()
  execute_process(COMMAND ${RSVG} --width 800 --format png --output ${png} ${svg}
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT err STREQUAL "")
    message(FATAL_ERROR "rsvg-convert ${svg}: exit ${rc}: ${err}")
  endif()
  file(READ ${png} signature LIMIT 8 HEX)
  file(SIZE ${png} bytes)
  if(NOT signature STREQUAL "89504e470d0a1a0a" OR bytes LESS 8000)
    message(FATAL_ERROR "${png}: not a drawn PNG (${bytes} bytes, signature ${signature})")
  endif()
  message(STATUS "${case}: ${png} ${bytes} bytes")
endforeach()
