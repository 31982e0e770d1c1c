# Script mode: writes OUTPUT, a C file holding INPUT's bytes as an array.
file(READ ${INPUT} hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," body "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" body "${body}")
file(WRITE ${OUTPUT}
"/* Generated from ${INPUT} by cmake/EmbedFile.cmake. Do not edit. */\n"
"const char *collcalc_builtin_${NAME}_json(void);\n"
"static const unsigned char data[] = {\n${body}0x00\n};\n"
"const char *collcalc_builtin_${NAME}_json(void) { return (const char *)data; }\n")
