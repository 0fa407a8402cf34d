"""Every playbook of the collection parses without a warning (make test-lint): a task's name or argument templated while
ansible-playbook reads the playbook, with a variable only the run sets, warns on every run - the demo's first lines
said "'dr_test_options' is undefined". Its inventory warnings (none given) are ansible-core's own and not counted.

    python tests/utils/parse_quietly.py   (ANSIBLE_COLLECTIONS_PATH: where replication.recovery is staged)
"""

import glob
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# ansible-core's warnings that there is no inventory (none is given here), and the cryptography library's of its own.
EXPECTED = ("No inventory was parsed", "provided hosts list is empty", "CryptographyDeprecationWarning", "from cryptography")


def said(playbook):
    """What ansible-playbook says beyond the expected, as it parses ``playbook`` (replication.recovery.<name>)."""
    parsed = subprocess.run([os.path.join(os.path.dirname(sys.executable), "ansible-playbook"), playbook, "--syntax-check"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False)
    lines = [line for line in parsed.stdout.splitlines() if line.strip() and not any(text in line for text in EXPECTED)
             and not line.startswith("playbook: ")]
    if parsed.returncode:
        lines.append("(exit status %d)" % parsed.returncode)
    return lines


def main():
    noisy = 0
    for path in sorted(glob.glob(os.path.join(ROOT, "playbooks", "*.yml"))):
        playbook = "replication.recovery." + os.path.basename(path)[:-len(".yml")]
        lines = said(playbook)
        if lines:
            noisy += 1
            print("%s does not parse quietly:\n  %s" % (playbook, "\n  ".join(lines)))
    if noisy:
        return 1
    print("every playbook parses without a warning")
    return 0


if __name__ == "__main__":
    sys.exit(main())
