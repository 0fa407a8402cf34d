"""Make the sanity requirements of the ansible-test installed beside this Python installable from a package registry.

ansible-core 2.22.0rc1's ansible-test pins pylint's ``dill`` to an archive of a commit on GitHub (``dill @ https://...``),
which a machine that reaches only package registries - this one, and CI's - cannot fetch: its pylint test stopped before
it began. Each such line becomes the package's name, so that pip takes its newest release from the registry (dill 0.4.1
on 2026-12-06); every other pin stays as ansible-test has it. Says what it changed; changes nothing when nothing is pinned
so (a release of ansible-core that pins dill to a release)."""

import glob
import os
import re
import sys

import ansible_test

PINNED_TO_A_URL = re.compile(r"^(?P<name>[A-Za-z0-9_.-]+)\s*@\s*https?://\S+\s*$", re.MULTILINE)


def main():
    folder = os.path.join(os.path.dirname(ansible_test.__file__), "_data", "requirements")
    for path in sorted(glob.glob(os.path.join(folder, "*.txt"))):
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        changed = PINNED_TO_A_URL.sub(lambda match: match.group("name"), text)
        if changed != text:
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(changed)
            names = ", ".join(match.group("name") for match in PINNED_TO_A_URL.finditer(text))
            print("%s: %s from the package registry, not from an archive's URL" % (os.path.basename(path), names))
    return 0


if __name__ == "__main__":
    sys.exit(main())
