#!/usr/bin/env python3
"""Re-runs every '$ collcalc ... [< FILE]' line in README.md ```console blocks (or in
tests/cli/*.t files) and writes the tool's current output below it.

Use after an intentional change of output, then read the diff: the golden
tests compare byte for byte, so every changed line must be one you meant.
Usage: tests/tools/fill_transcripts.py BUILD/collcalc FILE...
"""
import re
import shlex
import os
import subprocess
import sys


def run(binary, command):
    stdin_text = None
    if " < " in command:
        command, path = command.rsplit(" < ", 1)
        stdin_text = open(path).read()
    args = shlex.split(command)[1:]
    # The locale the tests run under (tests/CMakeLists.txt): charts in Unicode.
    env = dict(os.environ, LC_ALL="C.UTF-8")
    proc = subprocess.run([binary] + args, capture_output=True, text=True, input=stdin_text,
                          env=env)
    lines = [proc.stdout.rstrip("\n")] if proc.stdout else []
    for err in proc.stderr.splitlines():
        lines.append("[stderr] " + err)
    if proc.returncode != 0:
        lines.append("[exit %d]" % proc.returncode)
    return "\n".join(l for l in lines if l != "")


def fill_block(binary, body):
    out, command = [], None
    for line in body.split("\n"):
        if line.startswith("$ collcalc "):
            if command is not None:
                out.append(run(binary, command))
            command = line[2:]
            out.append(line)
    if command is not None:
        out.append(run(binary, command))
    return "\n".join(out) + "\n"


def main():
    binary = sys.argv[1]
    for path in sys.argv[2:]:
        text = open(path).read()
        if path.endswith(".md"):
            text = re.sub(r"```console\n(.*?)```\n",
                          lambda m: "```console\n" + fill_block(binary, m.group(1)) + "```\n",
                          text, flags=re.S)
        else:
            text = fill_block(binary, text)
        open(path, "w").write(text)


if __name__ == "__main__":
    main()
