"""What make demo printed, read as a newcomer reads it (make test-demo): no warning of a template error anywhere, and the
DR test in one wave with a checks file of one task in at most 12 task headers - ansible-core's validations of the roles'
arguments and the user's own tasks not counted - and no play printed that matched no host (issue "One run, one object").

    python tests/utils/demo_output.py OUTPUT CHECKS_FILE
"""

import re
import sys

import yaml

MOST_HEADERS = 12
VALIDATION = "Validating arguments against arg spec"


def problems(output, users):
    """What is wrong with ``output`` (the demo's): a list of sentences, empty when nothing is."""
    found = []
    if "template error" in output:
        found.append("a warning of a template error")
    start = output.find("PLAY [Start of the DR test]")
    if start < 0:
        return found + ["no play that starts the DR test"]
    headers = [name for name in re.findall(r"^TASK \[(?:[\w.]+ : )?(.*?)\] \**$", output[start:], re.M)
               if not name.startswith(VALIDATION) and name not in users]
    if len(headers) > MOST_HEADERS:
        found.append("the DR test printed %d task headers, more than %d:\n  %s" % (len(headers), MOST_HEADERS, "\n  ".join(headers)))
    empty = re.findall(r"^PLAY \[(.*?)\] \**\nskipping: no hosts matched$", output[start:], re.M)
    if empty:
        found.append("the DR test printed %d plays that matched no host:\n  %s" % (len(empty), "\n  ".join(empty)))
    return found


def main(path, checks):
    with open(checks, encoding="utf-8") as handle:
        users = set(task["name"] for task in yaml.safe_load(handle) or [] if "name" in task)
    with open(path, encoding="utf-8") as handle:
        found = problems(handle.read(), users)
    for sentence in found:
        print("make demo: %s" % sentence)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
