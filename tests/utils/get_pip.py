"""Stand-in for pip's get-pip.py, for ansible-test on machines that cannot download it.

ansible-test bootstraps pip into each virtual environment it makes by running a script it
downloads (and caches as ~/.ansible/test/cache/get_pip_<version>.py). Where that host is out
of reach, the Makefile puts this file there instead. It installs the interpreter's bundled pip
with ensurepip, then runs ``pip install`` with the arguments it was given, less the
bootstrap-only ``--no-setuptools`` and ``--no-wheel``, so pip ends at the version asked for.
"""

import os
import subprocess
import sys

BOOTSTRAP_ONLY = ("--no-setuptools", "--no-wheel")


def main():
    # ensurepip clears the PIP_* variables and points PIP_CONFIG_FILE at /dev/null in this
    # process; pip would then lose the machine's index settings. Put them back first.
    saved = dict(os.environ)
    import ensurepip
    ensurepip.bootstrap(upgrade=True)
    os.environ.clear()
    os.environ.update(saved)
    arguments = [argument for argument in sys.argv[1:] if argument not in BOOTSTRAP_ONLY]
    return subprocess.call([sys.executable, "-m", "pip", "install"] + arguments)


if __name__ == "__main__":
    sys.exit(main())
