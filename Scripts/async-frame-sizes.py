#!/usr/bin/env python3
"""Prints the async frame size of every async function in a binary whose name matches a pattern.

An async function's frame (its `AsyncContext`) is allocated from its task's allocator, whose
slabs hold 984 bytes on this toolchain: a call whose frame does not fit in what is left of the
current slab costs a heap allocation (a slab of its own when it is larger than one), paid again
by every task that makes the call. The size is the second 32-bit word of the function's async
function pointer (the symbol with the `Tu` suffix), so it can be read without running anything.

Usage: Scripts/async-frame-sizes.py BINARY [REGEX] [--top N]
  BINARY  an executable or library built with symbols (e.g. .build/release/TaskFlowBenchmarks)
  REGEX   only functions whose demangled name matches (Python syntax; default: every one)
  --top N how many to list, largest first (default 30)
"""
import argparse
import re
import struct
import subprocess
import sys


def die(message):
    print(f"async-frame-sizes: {message}", file=sys.stderr)
    sys.exit(2)


def sections(binary):
    """(address, file offset, size) of every section with file contents."""
    listing = subprocess.run(["readelf", "-SW", binary], capture_output=True, text=True, check=True).stdout
    found = []
    for match in re.finditer(r"\]\s+(\S+)\s+(\S+)\s+([0-9a-f]+)\s+([0-9a-f]+)\s+([0-9a-f]+)", listing):
        if match.group(2) != "NOBITS":
            found.append((int(match.group(3), 16), int(match.group(4), 16), int(match.group(5), 16)))
    return found


def file_offset(address, found):
    for start, offset, size in found:
        if start <= address < start + size:
            return address - start + offset
    return None


def main(argv):
    parser = argparse.ArgumentParser(
        description=__doc__.strip().split("\n\nUsage:")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("binary", help="an executable or library built with symbols")
    parser.add_argument("regex", nargs="?", default="", help="only functions whose demangled name matches")
    parser.add_argument("--top", type=int, default=30, help="how many to list, largest first (default 30)")
    options = parser.parse_args(argv)
    binary = options.binary
    try:
        pattern = re.compile(options.regex)
    except re.error as error:
        die(f"'{options.regex}' is not a regular expression: {error}")
    top = options.top
    try:
        symbols = subprocess.run(["nm", binary], capture_output=True, text=True, check=True).stdout.split("\n")
        contents = open(binary, "rb").read()
        found = sections(binary)
    except (OSError, subprocess.CalledProcessError) as error:
        die(f"cannot read {binary}: {error}")
    # Defined symbols only (address, kind, name): an undefined one has no contents here.
    pointers = [fields for fields in (line.split() for line in symbols if line.endswith("Tu")) if len(fields) == 3]
    mangled = [name[:-2] for _, _, name in pointers]
    demangled = subprocess.run(
        ["swift", "demangle", "--compact"], input="\n".join(mangled), capture_output=True, text=True, check=True
    ).stdout.split("\n")
    sizes = []
    for (address, _, _), name in zip(pointers, demangled):
        offset = file_offset(int(address, 16), found)
        if offset is None or not pattern.search(name):
            continue
        _, size = struct.unpack("<iI", contents[offset:offset + 8])
        sizes.append((size, name))
    for size, name in sorted(sizes, reverse=True)[:top]:
        print(f"{size:6d}  {name[:160]}")


if __name__ == "__main__":
    main(sys.argv[1:])
