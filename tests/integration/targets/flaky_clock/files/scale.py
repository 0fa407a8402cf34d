"""The simulator's clock speed: ``python scale.py URL`` prints it, ``python scale.py URL N`` sets it."""

import sys

import requests

url = sys.argv[1] + "/_simulator/clock"
if len(sys.argv) > 2:
    requests.post(url, json={"advanceSeconds": 0, "timeScale": float(sys.argv[2])}, timeout=30).raise_for_status()
else:
    print(requests.get(url, timeout=30).json()["timeScale"])
