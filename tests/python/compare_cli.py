#!/usr/bin/env python3
"""The Python module answers as the command line does: 200 questions from a
fixed generator (every operation; links, platforms with nodes, placements;
both cost models and NCCL options; compare, sweep, plan, moe, kv, the
tables; about one in eight refused) asked through collcalc.ask_text and
through the tool with --format json. Exit code, standard output and
standard error must be the same bytes; for the answers, collcalc.ask must
return what json.loads makes of the tool's output, and for the refusals
raise CollcalcError with the tool's message and exit code. Then the
```python examples of README.md run as doctests.

Usage: compare_cli.py COLLCALC [COUNT]; the module is imported from
bindings/python beside this tree's tests/ and finds the library through
COLLCALC_LIBRARY (CTest sets it to the build's libcollcalc.so)."""

import doctest
import json
import os
import re
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "bindings", "python"))
import collcalc  # noqa: E402

OPS = ["allreduce", "allgather", "reducescatter", "alltoall", "broadcast", "reduce", "sendrecv"]
LINKS = ["nvlink5", "nvlink4", "nvlink3", "pcie4", "pcie5", "ib-ndr", "eth400"]
PLATFORMS = ["hgx-h100", "hgx-b200", "gb200-nvl72", "dgx-a100", "aws-p5", "l40s-8x-pcie",
             "rtx2080ti-2x-pcie3", "hgx-h800"]
UNITS = ["B", "KB", "MB", "GB", "KiB", "MiB", "GiB", "K", "M", "G"]
MODELS = ["llama-3-70b", "llama-3.1-8b", "llama-3.1-405b"]


def size(rng):
    return "%d%s" % (rng.randint(1, 999), rng.choice(UNITS))


def where(rng):
    form = rng.random()
    if form < 0.4:
        words = ["--gpus", str(rng.randint(2, 512)), "--link", rng.choice(LINKS)]
    elif form < 0.8:
        words = ["--platform", rng.choice(PLATFORMS), "--nodes", str(rng.randint(1, 8))]
        if rng.random() < 0.3:
            words += ["--cost-model", "alpha-beta"]
        elif rng.random() < 0.3:
            words += rng.choice([["--nccl-version", "2.23"], ["--launch", "single-process"],
                                 ["--cuda-graph"], ["--no-nvls"], ["--nccl-algo", "ring"],
                                 ["--nccl-proto", "simple"]])
    else:
        words = ["--gpus", str(rng.choice([16, 32, 64])), "--gpus-per-node", "8",
                 "--intra", rng.choice(LINKS[:3]), "--inter", rng.choice(["ib-ndr", "eth400"])]
    return words


def question(rng):
    kind = rng.random()
    if kind < 0.55:
        words = [rng.choice(OPS), "--size", size(rng)] + where(rng)
        if rng.random() < 0.15:
            words += ["--layers", "80"]
    elif kind < 0.65:
        words = ["compare", rng.choice(OPS[:4]), "--size", size(rng), "--gpus",
                 str(rng.randint(2, 64))] + sum((["--link", link] for link in rng.sample(LINKS, 2)), [])
    elif kind < 0.72:
        words = ["compare", "allreduce", "--size", size(rng), "--gpus", "16",
                 "--placement", "platform=" + rng.choice(PLATFORMS[:4]),
                 "--placement", "platform=" + rng.choice(PLATFORMS[:4])]
    elif kind < 0.8:
        words = ["sweep", rng.choice(OPS[:4]), "-b", "1K", "-e", rng.choice(["1M", "64M", "1G"]),
                 "-f", str(rng.choice([2, 4, 8]))] + where(rng)
    elif kind < 0.87:
        words = ["plan", "--model", rng.choice(MODELS), "--tp", str(rng.choice([2, 4, 8])),
                 "--tokens", str(rng.choice([64, 256, 4096])), "--platform",
                 rng.choice(PLATFORMS[:4])]
    elif kind < 0.91:
        words = ["kv", "--model", rng.choice(MODELS), "--tokens", "8k", "--tp", "8",
                 "--platform", "hgx-h100", "--backend", rng.choice(["nccl", "nixl", "mooncake"])]
    elif kind < 0.94:
        words = ["moe", "--model", "deepseek-v3", "--ep", str(rng.choice([8, 16, 32])), "--tokens",
                 str(rng.choice([1024, 4096])), "--platform", rng.choice(["hgx-h800", "hgx-h100"])]
    else:
        words = [rng.choice(["links", "platforms", "models"])]
    if rng.random() < 0.12:  # refused: a bad size, an unknown link, an unknown option
        bad = rng.choice([["--size", "1XB"], ["--link", "nvlnk5"], ["--frobnicate"]])
        words = words[:1] + bad + words[1:]
    return words


def readme_examples():
    """Runs the ```python blocks of README.md as doctests (ELLIPSIS on);
    returns the number that failed."""
    with open(os.path.join(HERE, "..", "..", "README.md"), encoding="utf-8") as readme:
        blocks = re.findall(r"```python\n(.*?)```", readme.read(), re.S)
    parser, failed = doctest.DocTestParser(), 0
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for k, block in enumerate(blocks):
        test = parser.get_doctest(block, {}, "README.md python block %d" % (k + 1), "README.md", 0)
        failed += runner.run(test).failed
    if not blocks:
        print("README.md has no python block")
        return 1
    print("README.md: %d python blocks run" % len(blocks))
    return failed


def main():
    tool = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    rng = random.Random(19)
    failures = answered = refused = 0
    for n in range(count):
        words = question(rng)
        cli = subprocess.run([tool] + words + ["--format", "json"], stdin=subprocess.DEVNULL,
                             capture_output=True)
        want = (cli.returncode, cli.stdout.decode("utf-8", "replace"),
                cli.stderr.decode("utf-8", "replace"))
        got = collcalc.ask_text(words)
        if got != want:
            failures += 1
            print("question %d: %s" % (n, " ".join(words)))
            for label, a, b in zip(("exit", "stdout", "stderr"), got, want):
                if a != b:
                    print("  %s: module %r\n  %s:    CLI %r" % (label, str(a)[:300], label, str(b)[:300]))
            continue
        if want[0] == 0:
            answered += 1
            if collcalc.ask(words) != json.loads(want[1]):
                failures += 1
                print("question %d: ask() differs from the CLI's JSON: %s" % (n, " ".join(words)))
        else:
            refused += 1
            try:
                collcalc.ask(words)
                failures += 1
                print("question %d: ask() raised nothing for exit %d" % (n, want[0]))
            except collcalc.CollcalcError as error:
                last = [line for line in want[2].splitlines() if line.strip()][-1]
                if error.exit_code != want[0] or error.message != last or "\n" in error.message:
                    failures += 1
                    print("question %d: CollcalcError(%r, %d), CLI %r exit %d"
                          % (n, error.message, error.exit_code, last, want[0]))
    print("%d questions: %d answered, %d refused, %d differ (library %s)"
          % (count, answered, refused, failures, collcalc.library_path()))
    if answered < count // 2 or refused < count // 20:
        print("the generator's mix is off: too few answers or refusals")
        return 1
    return 1 if failures or readme_examples() else 0


if __name__ == "__main__":
    sys.exit(main())
