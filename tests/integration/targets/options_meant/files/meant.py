"""What the target of what was meant reads in the simulator and on the disk, outside the collection.

    python meant.py URL clear                 clear the simulator's statistics
    python meant.py URL quiet WORK            the service saw no request but sign-in (and sign-out) since, and nothing was
                                              written under WORK's report, ledger and run-state directories
    python meant.py URL cloud                 the target cloud's machines, one a line (to compare before and after)
    python meant.py URL one-line OUTPUT WORD NEAREST
                                              the refusal is one line naming WORD and NEAREST, and no line of OUTPUT is an
                                              argument spec's dump (ansible-core's own validation prints it whole)
"""

import json
import os
import sys

import requests


def quiet(url, work):
    stats = requests.get(url + "/_simulator/stats", timeout=30).json()
    seen = sorted("%s %s" % (row["method"], row["route"]) for row in stats["requests"] if row["route"] not in ("/login", "/logout"))
    assert not seen and stats["writes"] == 0, "the service saw more than a sign-in: %s" % seen
    written = []
    for name in ("here", "data", "out/ledger"):
        for root, _dirs, files in os.walk(os.path.join(work, name)):
            written += [os.path.join(root, found) for found in files]
    written += [os.path.join(work, "tmp", found) for found in os.listdir(os.path.join(work, "tmp")) if found.startswith("replication-recovery-")]
    assert not written, "files were written: %s" % written


def cloud(url):
    for machine in sorted(requests.get(url + "/_simulator/cloud", timeout=30).json()["items"], key=lambda item: json.dumps(item, sort_keys=True)):
        print(json.dumps(machine, sort_keys=True))


def one_line(output, word, nearest):
    with open(output, encoding="utf-8") as handle:
        lines = [line.replace('\\"', '"') for line in handle.read().splitlines()]  # a failed task's message is JSON
    naming = [line for line in lines if word in line and nearest in line]
    assert naming, "no line names both %s and %s" % (word, nearest)
    assert len(naming[0]) < 1200, "the refusal is %d characters long: %s" % (len(naming[0]), naming[0][:300])
    dumps = [line[:200] for line in lines if "argument_spec" in line or len(line) > 4000]
    assert not dumps, "an argument spec's dump: %s" % dumps


def main(url, command, *args):
    if command == "clear":
        requests.delete(url + "/_simulator/stats", timeout=30).raise_for_status()
    elif command == "quiet":
        quiet(url, *args)
    elif command == "cloud":
        cloud(url)
    elif command == "one-line":
        one_line(*args)
    else:
        raise SystemExit("unknown command %s" % command)


if __name__ == "__main__":
    main(*sys.argv[1:])
