"""Make sure ansible-test finds a pip bootstrap script in its cache.

ansible-test downloads get-pip.py for the pip version it pins. When the download host is out
of reach (no network, a proxy), this puts the stand-in ``get_pip.py`` beside this file in the
cache under the name ansible-test looks for. A script already cached is left alone.
"""

import os
import re
import shutil
import sys
import urllib.request

import ansible_test

URL = "https://ci-files.testing.ansible.com/ansible-test/get-pip-%s.py"


def pinned_pip_version():
    source = os.path.join(os.path.dirname(ansible_test.__file__), "_internal", "python_requirements.py")
    with open(source, encoding="utf-8") as handle:
        return re.search(r"pip='([0-9.]+)'", handle.read()).group(1)


def main():
    version = pinned_pip_version()
    cache = os.path.expanduser("~/.ansible/test/cache/get_pip_%s.py" % version.replace(".", "_"))
    if os.path.exists(cache):
        return 0
    os.makedirs(os.path.dirname(cache), exist_ok=True)
    try:
        with urllib.request.urlopen(URL % version, timeout=10) as answer, open(cache + ".download", "wb") as out:
            shutil.copyfileobj(answer, out)
        os.replace(cache + ".download", cache)
        print("cached pip %s bootstrap script" % version)
    except OSError as error:
        if os.path.exists(cache + ".download"):
            os.remove(cache + ".download")
        shutil.copy(os.path.join(os.path.dirname(os.path.abspath(__file__)), "get_pip.py"), cache)
        print("pip %s bootstrap script out of reach (%s): using the stand-in" % (version, error))
    return 0


if __name__ == "__main__":
    sys.exit(main())
