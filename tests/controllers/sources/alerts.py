"""An event source for the tests only: it puts the alerts it is given on the queue as ansible.eda.alertmanager puts
each alert of a notification (data_alerts_path: alerts) - {"alert": ..., "meta": ...} - then waits, as a webhook does."""

import asyncio


async def main(queue, args):
    for alert in args.get("alerts") or []:
        await queue.put(dict(alert=alert, meta=dict(endpoint="alerts", headers={})))
    await asyncio.Event().wait()
