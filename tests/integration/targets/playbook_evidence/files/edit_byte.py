"""Change one byte of a ledger entry: a digit of the first RTO in its report, to another digit."""

import re
import sys

with open(sys.argv[1], "rb") as handle:
    content = handle.read()
found = re.search(rb'"rto_seconds": (\d)', content)
at = found.start(1)
content = content[:at] + (b"1" if content[at:at + 1] != b"1" else b"2") + content[at + 1:]
with open(sys.argv[1], "wb") as handle:
    handle.write(content)
