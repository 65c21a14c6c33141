#!/usr/bin/env python3
"""Reads the JSON files `TaskFlowBenchmarks --json FILE` writes, and

  tables FILE...                 prints Markdown tables of every figure: one column per
                                 figure's TaskFlow value and baseline, as a range over the runs
  readme README FILE...          puts those tables in README between the markers
                                 <!-- benchmarks:begin --> and <!-- benchmarks:end -->
  guard FILE [--known-miss TEXT]...
                                 fails (status 1) when a ratio is more than twice as far from
                                 its target as the target allows (a cost over 2x its limit, a
                                 throughput under half of it); a figure starting with a
                                 --known-miss text is reported, not failed

Ratios, never times, are checked: a machine's speed changes times, not ratios to a baseline
measured in the same run. The tables are made from files, never typed by hand.
"""

import json
import re
import sys

BEGIN, END = "<!-- benchmarks:begin -->", "<!-- benchmarks:end -->"
NUMBER = re.compile(r"^([0-9]+(?:\.[0-9]+)?)(.*)$")


def load(paths):
    """The runs' documents, in the order given."""
    documents = []
    for path in paths:
        try:
            with open(path, encoding="utf-8") as file:
                documents.append(json.load(file))
        except (OSError, json.JSONDecodeError) as error:
            sys.exit(f"benchmark-report: {path}: {error}")
    if not documents:
        sys.exit("benchmark-report: no benchmark file given")
    return documents


def value_range(texts):
    """`2.9–3.4 µs` when every run's text is a number with the same unit, else the texts."""
    unique = list(dict.fromkeys(texts))
    if len(unique) == 1:
        return unique[0]
    parsed = [NUMBER.match(text) for text in texts]
    if all(parsed) and len({match.group(2) for match in parsed}) == 1:
        numbers = sorted(parsed, key=lambda match: float(match.group(1)))
        return f"{numbers[0].group(1)}–{numbers[-1].group(1)}{numbers[0].group(2)}"
    return " / ".join(unique)


def cell(text):
    """A table cell: pipes escaped."""
    return text.replace("|", "\\|")


def tables(documents):
    """Markdown for every table of the first run, each row ranged over every run that has it."""
    machine = documents[0]["machine"]
    lines = [
        f"Measured {len(documents)} time(s) on {machine['cpu']} ({machine['cores']} cores, Linux {machine['kernel']}, "
        f"{machine['swift']}, {machine['build']} build), {machine['date'][:10]}; made by "
        "`Scripts/benchmark-report.py` from `TaskFlowBenchmarks --json` files.",
        "",
    ]
    for table in documents[0]["tables"]:
        title = table["title"]
        runs = [next((t for t in document["tables"] if t["title"] == title), None) for document in documents]
        lines += [f"**{title}**", "", "| figure | TaskFlow | baseline | ratio | target | met |", "|---|---|---|---|---|---|"]
        for row in table["rows"]:
            same = [next((r for r in run["rows"] if r["figure"] == row["figure"]), None) for run in runs if run]
            same = [r for r in same if r]
            columns = [value_range([r[key] for r in same]) for key in ("taskflow", "baseline", "ratio")]
            met = value_range([r["met"] for r in same])
            lines.append("| " + " | ".join(cell(text) for text in [row["figure"], *columns, row["target"], met]) + " |")
        lines.append("")
    return "\n".join(lines)


def readme(path, documents):
    """Replaces what stands between the markers in `path` with the tables."""
    with open(path, encoding="utf-8") as file:
        text = file.read()
    if BEGIN not in text or END not in text:
        sys.exit(f"benchmark-report: {path} has no {BEGIN} … {END} markers")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    with open(path, "w", encoding="utf-8") as file:
        file.write(head + BEGIN + "\n" + tables(documents) + END + tail)


def guard(documents, known_misses):
    """Prints each checked ratio's standing; returns the failures."""
    failures = []
    for document in documents:
        for table in document["tables"]:
            for row in table["rows"]:
                limit, ratio = row.get("ratioLimit"), row.get("ratioValue")
                if limit is None or ratio is None or ratio <= 0:
                    continue
                excess = ratio / limit["value"] if limit["atMost"] else limit["value"] / ratio
                known = any(row["figure"].startswith(miss) for miss in known_misses)
                standing = "ok" if excess <= 2 else "known miss" if known else "FAILED"
                print(f"{standing:>10}  {row['ratio']:>7} for {row['target']:<22} {row['figure']}")
                if standing == "FAILED":
                    failures.append(row["figure"])
    return failures


def main(arguments):
    if not arguments or arguments[0] not in ("tables", "readme", "guard"):
        sys.exit(__doc__)
    command, rest = arguments[0], arguments[1:]
    if command == "tables":
        print(tables(load(rest)))
    elif command == "readme":
        if len(rest) < 2:
            sys.exit("benchmark-report: readme README FILE...")
        readme(rest[0], load(rest[1:]))
    else:
        files, known = [], []
        while rest:
            word = rest.pop(0)
            if word == "--known-miss":
                if not rest:
                    sys.exit("benchmark-report: --known-miss needs the start of a figure")
                known.append(rest.pop(0))
            else:
                files.append(word)
        failures = guard(load(files), known)
        if failures:
            print(f"benchmark-report: {len(failures)} ratio(s) more than twice their target: " + "; ".join(failures))
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
