"""Assert that the hook log (argument 1) holds exactly the lines given after it, in order; a line
given as "a|b" stands for lines a and b in either order (checks of one wave run side by side)."""

import sys

lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
at = 0
for expected in sys.argv[2:]:
    some = expected.split("|")
    found = lines[at:at + len(some)]
    assert sorted(found) == sorted(some), "expected %s at line %d of %s, found %s" % (some, at + 1, lines, found)
    at += len(some)
assert at == len(lines), "more lines than expected: %s" % lines[at:]
print("%d lines in the order expected" % len(lines))
