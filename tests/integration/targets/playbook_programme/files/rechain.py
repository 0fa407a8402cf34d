"""Edit a ledger entry as someone who can write the ledger would to hide it: the entry's report said passed, and every
hash from it on recomputed (its own, and each later entry's link and hash), so that the chain alone holds.

    python rechain.py LEDGER SEQUENCE
"""

import hashlib
import json
import os
import sys


def digest(entry):
    content = dict((key, value) for key, value in entry.items() if key != "sha256")
    return hashlib.sha256(json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")).hexdigest()


def main(ledger, sequence):
    previous = None
    for name in sorted(name for name in os.listdir(ledger) if name.endswith(".json")):
        path = os.path.join(ledger, name)
        with open(path, encoding="utf-8") as handle:
            entry = json.load(handle)
        if entry["sequence"] == sequence:
            entry["result"] = entry["report"]["result"] = entry["report"]["outcome"] = "passed"
        if entry["sequence"] >= sequence:
            entry["previous"] = previous
            entry["sha256"] = digest(entry)
            with open(path, "w", encoding="utf-8") as handle:
                json.dump(entry, handle, indent=1, sort_keys=True, ensure_ascii=False)
        previous = entry["sha256"]


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
