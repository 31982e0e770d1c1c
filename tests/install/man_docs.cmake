cmake_minimum_required(VERSION 3.20)
# Test (cmake -P): the man page names only documents that are installed.
# Every name ending in .md, and every data/*.json table, in the installed
# collcalc.1 must be a file under the installed documentation directory
# (DOCDIR), and the page names no source-tree path (doc/, src/, tests/,
# bench/). (Other .json names are the user's files in examples.)
# Inputs: PREFIX, MANDIR, DOCDIR.
set(page ${PREFIX}/${MANDIR}/man1/collcalc.1)
if(NOT EXISTS ${page})
  message(FATAL_ERROR "no installed man page ${page}")
endif()
file(READ ${page} text)
string(REGEX MATCHALL "[A-Za-z0-9_./-]+\\.md|[A-Za-z0-9_./-]*data/[A-Za-z0-9_-]+\\.json"
       names "${text}")
list(REMOVE_DUPLICATES names)
set(problems "")
foreach(name ${names})
  if(name MATCHES "^(doc|src|tests|bench|\\.\\./)")
    list(APPEND problems "${name}: a source-tree path")
  elseif(NOT EXISTS ${PREFIX}/${DOCDIR}/${name})
    list(APPEND problems "${name}: not installed in ${DOCDIR}")
  endif()
endforeach()
if(NOT names)
  list(APPEND problems "the man page names no document (README.md, MODEL.md)")
endif()
if(problems)
  list(JOIN problems "\n  " text)
  message(FATAL_ERROR "collcalc.1 names documents that are not installed:\n  ${text}")
endif()
list(JOIN names ", " text)
message(STATUS "collcalc.1 names ${text}: all installed in ${DOCDIR}")
