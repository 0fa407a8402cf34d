"""Print the first fenced block of a language under a heading of one of the collection's guides, so
that the test runs what the guide shows, not a copy of it."""

import re
import sys


def section(lines, heading):
    """The lines under a heading of any level, to the next heading of that level or above (a line
    that starts with # inside a fenced block is a comment, not a heading)."""
    level, fenced, found = None, False, []
    for line in lines:
        if line.startswith("```"):
            fenced = not fenced
        heading_here = None if fenced else re.match(r"(#+) (.*)", line)
        if level is None:
            if heading_here and heading_here.group(2).strip() == heading:
                level = len(heading_here.group(1))
            continue
        if heading_here and len(heading_here.group(1)) <= level:
            break
        found.append(line)
    if level is None:
        sys.exit("The guide has no heading %r" % heading)
    return "".join(found)


def main(guide, heading, language):
    with open(guide, encoding="utf-8") as handle:
        text = section(handle.readlines(), heading)
    block = re.search(r"^```%s\n(.*?)^```$" % re.escape(language), text, re.S | re.M)
    if block is None:
        sys.exit("No %s block under %r in %s" % (language, heading, guide))
    sys.stdout.write(block.group(1))


if __name__ == "__main__":
    main(*sys.argv[1:])
