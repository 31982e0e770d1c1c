"""collcalc from Python: the questions of the command line, the answers of
its JSON output, through the shared library (standard library only).

    >>> import collcalc
    >>> doc = collcalc.ask(["allreduce", "--size", "100MB", "--gpus", "8", "--link", "nvlink5"])
    >>> doc["query"]["gpus"], doc["results"][0]["algorithm"]
    (8, 'ring')

ask(words) runs `collcalc WORDS --format json` inside this process (the
library's collcalc_ask, include/collcalc/ask.h) and returns the document
json.loads makes of what it prints: the library renders it; this module adds
nothing. A failure raises CollcalcError with the command's one-line message
and its exit code (1 bad data or file, 2 usage, 3 a --strict violation).
ask_text(words) returns the exit code and the texts of standard output and
error as they are, for other formats (--format csv, batch's jsonl).

The library is looked for, in this order: the file named by the environment
variable COLLCALC_LIBRARY; libcollcalc.so* next to this file; the one
installed with this module (cmake --install writes its directory below);
the system's (libcollcalc.so.MAJOR through the dynamic loader's path).
"""

import ctypes
import ctypes.util
import glob
import json
import os

__all__ = ["ask", "ask_text", "CollcalcError", "library_path"]

# Written by cmake --install into the installed copy (the library's
# directory); left as it is, it names nothing.
_INSTALLED_LIBDIR = "@COLLCALC_PYTHON_LIBDIR@"
_SONAME = "@COLLCALC_PYTHON_SONAME@"


class CollcalcError(Exception):
    """A question collcalc refused or could not answer.

    message: the command's message (its last line on standard error);
    exit_code: 1 bad data or file, 2 usage error, 3 a --strict violation;
    stderr: all it printed on standard error (warnings before the message).
    """

    def __init__(self, message, exit_code, stderr=""):
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code
        self.stderr = stderr


def _candidates():
    named = os.environ.get("COLLCALC_LIBRARY")
    if named:
        return [named]  # asked for by name: that one or none
    here = os.path.dirname(os.path.abspath(__file__))
    found = sorted(glob.glob(os.path.join(here, "libcollcalc.so*")), key=len)
    if not _INSTALLED_LIBDIR.startswith("@"):
        soname = _SONAME if not _SONAME.startswith("@") else "libcollcalc.so"
        found.append(os.path.join(_INSTALLED_LIBDIR, soname))
    if not _SONAME.startswith("@"):
        found.append(_SONAME)
    system = ctypes.util.find_library("collcalc")
    if system:
        found.append(system)
    return found


_library = None
_library_path = None


def _load():
    global _library, _library_path
    if _library is not None:
        return _library
    tried = []
    for path in _candidates():
        try:
            library = ctypes.CDLL(path)
        except OSError as error:
            tried.append("%s (%s)" % (path, error))
            continue
        library.collcalc_ask.restype = ctypes.c_int
        library.collcalc_ask.argtypes = [
            ctypes.c_int,
            ctypes.POINTER(ctypes.c_char_p),
            ctypes.POINTER(ctypes.c_void_p),
            ctypes.POINTER(ctypes.c_void_p),
        ]
        library.collcalc_ask_free.restype = None
        library.collcalc_ask_free.argtypes = [ctypes.c_void_p]
        _library, _library_path = library, path
        return library
    raise OSError(
        "collcalc: no shared library found (set COLLCALC_LIBRARY to libcollcalc.so); tried: "
        + ("; ".join(tried) if tried else "nothing")
    )


def library_path():
    """The shared library this module uses (loading it if need be)."""
    _load()
    return _library_path


def _word(value):
    if isinstance(value, bool) or not isinstance(value, (str, int, os.PathLike)):
        raise TypeError("collcalc: command-line words are str, int or paths, not %r" % (value,))
    return os.fsencode(os.fspath(value) if isinstance(value, os.PathLike) else str(value))


def _take(library, pointer):
    if not pointer.value:
        return ""
    text = ctypes.string_at(pointer.value).decode("utf-8", "replace")
    library.collcalc_ask_free(pointer)
    return text


def ask_text(words):
    """Runs `collcalc WORDS` (plus --format json when the command takes
    --format and WORDS give none) and returns (exit_code, stdout, stderr)."""
    if isinstance(words, (str, bytes)):
        raise TypeError("collcalc: pass the words as a list: ['allreduce', '--size', '1GB', ...]")
    library = _load()
    encoded = [_word(word) for word in words]
    argv = (ctypes.c_char_p * (len(encoded) + 1))(*encoded, None)
    out, err = ctypes.c_void_p(), ctypes.c_void_p()
    code = library.collcalc_ask(len(encoded), argv, ctypes.byref(out), ctypes.byref(err))
    return code, _take(library, out), _take(library, err)


def ask(words):
    """The JSON document `collcalc WORDS --format json` prints, parsed with
    json.loads. Raises CollcalcError when the command fails."""
    code, out, err = ask_text(words)
    if code != 0:
        lines = [line for line in err.splitlines() if line.strip()]
        raise CollcalcError(lines[-1] if lines else "collcalc: exit code %d" % code, code, err)
    return json.loads(out)
