#!/usr/bin/env python
"""The simulator's request statistics: `stats.py URL zero` zeroes them; `stats.py URL` prints them as
`<count> <method> <route>` lines and the total on the last line."""

import json
import sys
import urllib.request

url = sys.argv[1] + "/_simulator/stats"
if sys.argv[2:] == ["zero"]:
    urllib.request.urlopen(urllib.request.Request(url, method="DELETE"))
else:
    stats = json.load(urllib.request.urlopen(url))
    for entry in stats["requests"]:
        print("%d %s %s" % (entry["count"], entry["method"], entry["route"]))
    print("total %d" % stats["total"])
