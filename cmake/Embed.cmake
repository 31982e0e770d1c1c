# collcalc_embed(NAME FILE): compiles FILE into the library as
#   const char *collcalc_builtin_<NAME>_json(void)
# returning its bytes NUL-terminated. Appends the generated source to
# COLLCALC_EMBEDDED_SOURCES.
function(collcalc_embed name file)
  set(out ${CMAKE_BINARY_DIR}/generated/embedded_${name}.c)
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DNAME=${name} -DINPUT=${file} -DOUTPUT=${out}
            -P ${CMAKE_SOURCE_DIR}/cmake/EmbedFile.cmake
    DEPENDS ${file} ${CMAKE_SOURCE_DIR}/cmake/EmbedFile.cmake
    COMMENT "Embedding ${file}")
  set(COLLCALC_EMBEDDED_SOURCES ${COLLCALC_EMBEDDED_SOURCES} ${out} PARENT_SCOPE)
endfunction()
