#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Prints the markdown table of `make bench` from Google Benchmark JSON files.

Camel's figures come from shared/reference/000 (CAMEL-25132: JDK 21, aarch64, 8 vCPU, single
thread through a ProducerTemplate). They were measured on other hardware, so the ratio column
compares like for like only as an order of magnitude.
"""
import json
import sys

# scenario -> (Camel ns/op or None, Camel bytes/op or None, what Camel measured)
CAMEL = {
    "direct_1": (400, 1768, "direct -> 1 processor"),
    "direct_10": (1130, 2344, "direct -> 10 processors"),
    "node_cost": (80, 55, "per extra route node"),
    "typical": (None, 4064, "filter/choice/simple/direct"),
    "redelivery_10": (1550, 8712, "10 nodes, maximumRedeliveries(3): a copy per node"),
    "remove_headers_pattern": (930, 7600, "removeHeaders(\"Camel*\"), 12 headers"),
    "to_dynamic_overhead": (49, 216, "normalizeUri per toD exchange"),
    "convert_user_type": (895, 1480, "convertTo(LoggingLevel, \"INFO\")"),
    "mt_10": (1e9 / 942e3, None, "10 nodes, 1 thread, no management: 942k ops/s"),
    "split_100": (34000, 103944, "split of 100 items, sequential"),
    "multicast_3": (None, 6704, "multicast to 3"),
    "simple_ognl": (361, 3800, "${body.name}: BeanExpression + exchange copy per call"),
    "simple_date": (532, 2000, "${date:now:pattern}: SimpleDateFormat per call"),
}


def load(paths):
    rows = {}
    for path in paths:
        with open(path) as f:
            data = json.load(f)
        for b in data["benchmarks"]:
            if b.get("aggregate_name", "mean") != "mean":
                continue
            name = b.get("run_name", b["name"]).split("/")[0]
            threads = b.get("threads", 1)
            key = name if threads == 1 else f"{name} ({threads} threads)"
            rows[key] = {
                "ns": b["real_time"] if b.get("time_unit", "ns") == "ns" else None,
                "items_per_second": b.get("items_per_second"),
                "allocs": b.get("allocs_per_op", 0.0),
                "bytes": b.get("bytes_per_op", 0.0),
            }
    if "direct_1" in rows and "direct_10" in rows:
        d1, d10 = rows["direct_1"], rows["direct_10"]
        rows["node_cost"] = {
            "ns": (d10["ns"] - d1["ns"]) / 9,
            "allocs": (d10["allocs"] - d1["allocs"]) / 9,
            "bytes": (d10["bytes"] - d1["bytes"]) / 9,
            "items_per_second": None,
        }
    if "direct_1" in rows and "to_dynamic" in rows:
        d1, td = rows["direct_1"], rows["to_dynamic"]
        rows["to_dynamic_overhead"] = {
            "ns": td["ns"] - d1["ns"],
            "allocs": td["allocs"] - d1["allocs"],
            "bytes": td["bytes"] - d1["bytes"],
            "items_per_second": None,
        }
    return rows


def fmt(v, digits=1):
    return "-" if v is None else f"{v:,.{digits}f}"


def main(paths):
    rows = load(paths)
    print("| scenario | ns/op | ops/s | allocs/op | bytes/op | Camel ns/op | Camel bytes/op | "
          "time ratio (Camel/us) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name in sorted(rows):
        r = rows[name]
        base = name.split(" ")[0]
        camel_ns, camel_bytes, _ = CAMEL.get(base, (None, None, ""))
        if " (" in name:  # multi-thread rows compare throughput, not per-op time
            camel_ns = camel_bytes = None
        ratio = f"{camel_ns / r['ns']:,.0f}x" if camel_ns and r["ns"] else "-"
        print(f"| {name} | {fmt(r['ns'])} | {fmt(r['items_per_second'], 0)} | "
              f"{fmt(r['allocs'], 2)} | {fmt(r['bytes'], 0)} | {fmt(camel_ns, 0)} | "
              f"{fmt(camel_bytes, 0)} | {ratio} |")
    mt1 = rows.get("mt_10", {}).get("items_per_second")
    mt2 = rows.get("mt_10 (2 threads)", {}).get("items_per_second")
    if mt1 and mt2:
        print(f"\nmt_10 scaling from 1 to 2 threads (separate runs): {mt2 / mt1:.2f}x")


if __name__ == "__main__":
    main(sys.argv[1:])
