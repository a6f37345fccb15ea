"""The tutor's Event list against a cluster, in a process of its own, and the memory it took.

    python -m tests.e2e.event_list_peak KUBECONFIG NAMESPACE [--whole] [--trace]

Lists the namespace's Events as the live source does (list_once, with the watchdog's Held), or,
with --whole, as list_once did before the list was kept in the store's cap: every Event kept, and
every key and resourceVersion for the watchdog. Prints one JSON object: how many Events were
listed and kept, and the process's peak RSS (VmHWM) above its RSS before the list; with --trace,
tracemalloc's peak over the list instead (tracemalloc's own records would swell the RSS).
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
import tracemalloc
from pathlib import Path

from tutor.cluster import kinds, live
from tutor.cluster.connect import connect
from tutor.cluster.held import Held


def status_kb(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise LookupError(field)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("kubeconfig")
    ap.add_argument("namespace")
    ap.add_argument("--whole", action="store_true", help="every Event kept, every key for the watchdog")
    ap.add_argument("--trace", action="store_true", help="tracemalloc's peak, not the RSS")
    args = ap.parse_args(argv)
    api_client = connect(args.kubeconfig).api_client
    if args.whole:
        live.kept_from_a_list = lambda res: None
    held = Held(None if args.whole else live.kept_from_a_list(kinds.EVENT))
    # One call first, so the client, its connection and TLS are made before the RSS is read.
    live.peek(api_client, kinds.EVENT, args.namespace)
    gc.collect()
    if args.trace:
        tracemalloc.start()
    Path("/proc/self/clear_refs").write_text("5")  # VmHWM starts again from the RSS now
    before_kb = status_kb("VmRSS")
    started = time.monotonic()
    items, rv = live.list_once(api_client, kinds.EVENT, args.namespace, held)
    took = time.monotonic() - started
    out = {"listed": len(held), "kept": len(items), "watchdog_keys": len(held.versions), "list_s": round(took, 2)}
    if args.trace:
        out["trace_peak_mb"] = round(tracemalloc.get_traced_memory()[1] / 2**20, 1)
    else:
        out["rss_peak_above_mb"] = round((status_kb("VmHWM") - before_kb) / 1024, 1)
        out["rss_before_mb"] = round(before_kb / 1024, 1)
    sys.stdout.write(json.dumps(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
