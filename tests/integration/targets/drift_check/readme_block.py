"""Print the first fenced block of a language under a heading of the collection's README, so that
the test runs what the README shows, not a copy of it."""

import re
import sys


def main(readme, heading, language):
    with open(readme, encoding="utf-8") as handle:
        text = handle.read()
    section = text.split("\n## %s\n" % heading, 1)[1].split("\n## ", 1)[0]
    block = re.search(r"^```%s\n(.*?)^```$" % re.escape(language), section, re.S | re.M)
    sys.stdout.write(block.group(1))


if __name__ == "__main__":
    main(*sys.argv[1:])
