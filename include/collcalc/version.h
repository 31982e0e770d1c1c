/* The library's version: compile-time macros and the run-time call. The
 * top-level CMakeLists.txt reads these three numbers for project(VERSION),
 * so the build, the pkg-config file, the CMake package and the SONAME all
 * follow this header. */
#ifndef COLLCALC_VERSION_H
#define COLLCALC_VERSION_H

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility push(default) /* the public API; everything else is hidden */
#endif

/* Semantic version of the headers you compiled against. The major number is
 * the shared library's SONAME (libcollcalc.so.MAJOR). */
#define COLLCALC_VERSION_MAJOR 0
#define COLLCALC_VERSION_MINOR 2
#define COLLCALC_VERSION_PATCH 0

/* "MAJOR.MINOR.PATCH" as a string literal, built from the numbers above. */
#define COLLCALC_VERSION_STRINGIFY_(x) #x
#define COLLCALC_VERSION_STRINGIFY(x) COLLCALC_VERSION_STRINGIFY_(x)
#define COLLCALC_VERSION_STRING                                                                  \
    COLLCALC_VERSION_STRINGIFY(COLLCALC_VERSION_MAJOR)                                           \
    "." COLLCALC_VERSION_STRINGIFY(COLLCALC_VERSION_MINOR) "." COLLCALC_VERSION_STRINGIFY(       \
        COLLCALC_VERSION_PATCH)

/* One number that orders versions: MAJOR * 10000 + MINOR * 100 + PATCH
 * (0.2.0 is 200), for `#if COLLCALC_VERSION_NUMBER >= ...`. */
#define COLLCALC_VERSION_NUMBER                                                                  \
    (COLLCALC_VERSION_MAJOR * 10000 + COLLCALC_VERSION_MINOR * 100 + COLLCALC_VERSION_PATCH)

/* Version of the library actually linked ("0.2.0"): static string, never
 * NULL. Differs from COLLCALC_VERSION_STRING only when a program runs against
 * another build of the shared library than the headers it was compiled with. */
const char *collcalc_version(void);

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
