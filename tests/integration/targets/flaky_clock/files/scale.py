"""The simulator's clock speed: ``python scale.py URL`` prints it, ``python scale.py URL N`` sets it; ``python scale.py URL
--keep-every-point S`` sets how long the service keeps every point in time of the machines seeded from then on."""

import sys

import requests

root = sys.argv[1] + "/_simulator"
if sys.argv[2:3] == ["--keep-every-point"]:
    requests.patch(root + "/settings", json={"keepEveryPointSeconds": float(sys.argv[3])}, timeout=30).raise_for_status()
elif len(sys.argv) > 2:
    requests.post(root + "/clock", json={"advanceSeconds": 0, "timeScale": float(sys.argv[2])}, timeout=30).raise_for_status()
else:
    print(requests.get(root + "/clock", timeout=30).json()["timeScale"])
