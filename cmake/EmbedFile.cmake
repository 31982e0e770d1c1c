# Script mode: writes OUTPUT, a C file holding INPUT's bytes as an array.
# The accessor is public API (declared in include/collcalc/links.h,
# platforms.h, ...), so it is exported like the headers' declarations.
file(READ ${INPUT} hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," body "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" body "${body}")
file(WRITE ${OUTPUT}
"/* Generated from ${INPUT} by cmake/EmbedFile.cmake. Do not edit. */\n"
"#if defined(__GNUC__) || defined(__clang__)\n"
"#pragma GCC visibility push(default)\n"
"#endif\n"
"const char *collcalc_builtin_${NAME}_json(void);\n"
"#if defined(__GNUC__) || defined(__clang__)\n"
"#pragma GCC visibility pop\n"
"#endif\n"
"static const unsigned char data[] = {\n${body}0x00\n};\n"
"const char *collcalc_builtin_${NAME}_json(void) { return (const char *)data; }\n")
